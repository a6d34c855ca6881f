#!/usr/bin/env python3
"""Measure what PyTorch really allocates, for VRAM Planner's accuracy tests.

CPU mode (default; Debian's python3-torch is enough, run with /usr/bin/python3):
builds small GPT- and LLaMA-style models from PyTorch's own modules, written
to do exactly what Hugging Face's modeling_gpt2.py / modeling_llama.py eager
paths do, and measures exactly:
  * parameter, gradient and optimizer-state bytes per optimizer;
  * saved-for-backward activation bytes (torch.autograd.graph.saved_tensors_hooks,
    each storage counted once, parameters excluded), for one layer and for the
    whole forward pass including the loss, with and without dropout, and with
    full activation checkpointing;
  * KV-cache bytes after a prefill.
Writes tests/validation/torch-cpu-results.json; tests/core/tst_validation
compares the engine with every case through the CLI's own option parsing.

CUDA mode (--cuda; a GPU machine with torch, transformers and peft):
instantiates Hugging Face models from config (random weights, no downloads)
at 0.5B-8B and measures peak allocated/reserved memory and the CUDA context
for generate() with a KV cache, full training (AdamW; bf16 mixed and pure
bf16), LoRA and QLoRA-style runs with gradient checkpointing on and off.
Writes tests/validation/torch-cuda-results.json with the GPU name and the
software versions. The whole grid is sized to finish well inside 10 minutes.
"""

import argparse
import json
import math
import os
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

HERE = os.path.dirname(os.path.abspath(__file__))


# --------------------------------------------------------------------------
# Models: the Hugging Face eager code paths, written out with torch.nn.
#
# Two places differ from a literal copy so that what autograd saves matches
# what current PyTorch saves on a GPU, whatever torch this runs on:
#  * dropout goes through torch.native_dropout, the fused kernel F.dropout
#    uses on CUDA (it saves a 1-byte mask); F.dropout's CPU fallback saves a
#    full-precision noise tensor instead;
#  * RMSNorm's variance is pow(2).sum()/h: the same value as pow(2).mean(),
#    and the same saved tensors as mean() in PyTorch >= 2.0, whose backward
#    keeps only sizes (derivatives.yaml, mean.dim); PyTorch 1.13's mean()
#    also kept its input.

def dropout(x, p, training):
    if not training or p == 0.0:
        return x
    return torch.native_dropout(x, p, True)[0]


class GptBlock(nn.Module):
    """modeling_gpt2.GPT2Block (eager attention, activation 'gelu')."""

    def __init__(self, h, heads, inner, dropout):
        super().__init__()
        self.heads = heads
        self.ln_1 = nn.LayerNorm(h)
        self.c_attn = nn.Linear(h, 3 * h)
        self.c_proj = nn.Linear(h, h)
        self.ln_2 = nn.LayerNorm(h)
        self.c_fc = nn.Linear(h, inner)
        self.mlp_proj = nn.Linear(inner, h)
        self.p = dropout

    def forward(self, x):
        b, s, h = x.shape
        d = h // self.heads
        residual = x
        q, k, v = self.c_attn(self.ln_1(x)).split(h, dim=2)
        q, k, v = (t.view(b, s, self.heads, d).transpose(1, 2) for t in (q, k, v))
        w = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(d)
        causal = torch.ones(s, s, dtype=torch.bool).tril()
        w = torch.where(causal, w, torch.tensor(torch.finfo(w.dtype).min, dtype=w.dtype))
        w = dropout(F.softmax(w, dim=-1), self.p, self.training)
        o = torch.matmul(w, v).transpose(1, 2).reshape(b, s, h)
        x = residual + dropout(self.c_proj(o), self.p, self.training)
        residual = x
        y = self.mlp_proj(F.gelu(self.c_fc(self.ln_2(x))))
        return residual + dropout(y, self.p, self.training)


class Gpt(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        h = cfg["n_embd"]
        self.wte = nn.Embedding(cfg["vocab_size"], h)
        self.wpe = nn.Embedding(cfg["n_positions"], h)
        self.p = cfg["embd_pdrop"]
        self.blocks = nn.ModuleList(
            GptBlock(h, cfg["n_head"], cfg["n_inner"], cfg["resid_pdrop"]) for _ in range(cfg["n_layer"]))
        self.ln_f = nn.LayerNorm(h)

    def body(self, ids, ckpt):
        pos = torch.arange(ids.shape[1]).unsqueeze(0)
        x = dropout(self.wte(ids) + self.wpe(pos), self.p, self.training)
        for block in self.blocks:
            x = checkpoint(block, x) if ckpt else block(x)
        return self.ln_f(x)

    def head(self, x):
        return F.linear(x, self.wte.weight)  # tied lm_head


class RmsNorm(nn.Module):
    """modeling_llama.LlamaRMSNorm (variance as sum/h, see above)."""

    def __init__(self, h, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(h))
        self.eps = eps

    def forward(self, x):
        dtype = x.dtype
        x = x.to(torch.float32)
        variance = x.pow(2).sum(-1, keepdim=True) / x.shape[-1]
        x = x * torch.rsqrt(variance + self.eps)
        return self.weight * x.to(dtype)


def rotate_half(x):
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2:]
    return torch.cat((-x2, x1), dim=-1)


def repeat_kv(x, n):
    """modeling_llama.repeat_kv: materialises K/V for every query head."""
    b, kv, s, d = x.shape
    if n == 1:
        return x
    return x[:, :, None, :, :].expand(b, kv, n, s, d).reshape(b, kv * n, s, d)


def plain_linear(name, inp, out):
    return nn.Linear(inp, out, bias=False)


class LlamaBlock(nn.Module):
    """modeling_llama.LlamaDecoderLayer, eager attention. `linear(name, in,
    out)` makes each projection (q, k, v or the fused qkv, o, gate, up,
    down): plain nn.Linear, or the adapter stacks' layers below."""

    def __init__(self, cfg, linear=plain_linear, fused_qkv=False):
        super().__init__()
        h = cfg["hidden_size"]
        self.heads = cfg["num_attention_heads"]
        self.kv = cfg["num_key_value_heads"]
        self.d = h // self.heads
        self.widths = [self.heads * self.d, self.kv * self.d, self.kv * self.d]
        if fused_qkv:  # LitGPT CausalSelfAttention.qkv
            self.qkv_proj = linear("qkv", h, sum(self.widths))
        else:
            self.q_proj = linear("q", h, self.widths[0])
            self.k_proj = linear("k", h, self.widths[1])
            self.v_proj = linear("v", h, self.widths[2])
        self.o_proj = linear("o", self.heads * self.d, h)
        self.gate_proj = linear("gate", h, cfg["intermediate_size"])
        self.up_proj = linear("up", h, cfg["intermediate_size"])
        self.down_proj = linear("down", cfg["intermediate_size"], h)
        self.input_layernorm = RmsNorm(h)
        self.post_attention_layernorm = RmsNorm(h)

    def qkv(self, x):
        if hasattr(self, "qkv_proj"):
            return self.qkv_proj(x).split(self.widths, dim=-1)
        return self.q_proj(x), self.k_proj(x), self.v_proj(x)

    def forward(self, x, cos, sin, cache=None):
        b, s, _ = x.shape
        residual = x
        x = self.input_layernorm(x)
        q, k, v = self.qkv(x)
        q = q.reshape(b, s, self.heads, self.d).transpose(1, 2)
        k = k.reshape(b, s, self.kv, self.d).transpose(1, 2)
        v = v.reshape(b, s, self.kv, self.d).transpose(1, 2)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        if cache is not None:
            cache.append((k, v))
        k = repeat_kv(k, self.heads // self.kv)
        v = repeat_kv(v, self.heads // self.kv)
        w = torch.matmul(q, k.transpose(2, 3)) / math.sqrt(self.d)
        w = w + torch.full((s, s), torch.finfo(w.dtype).min, dtype=w.dtype).triu(1)
        w = F.softmax(w, dim=-1, dtype=torch.float32).to(q.dtype)
        o = torch.matmul(w, v).transpose(1, 2).contiguous().reshape(b, s, -1)
        x = residual + self.o_proj(o)
        residual = x
        y = self.post_attention_layernorm(x)
        return residual + self.down_proj(F.silu(self.gate_proj(y)) * self.up_proj(y))


class Llama(nn.Module):
    def __init__(self, cfg, linear=plain_linear, fused_qkv=False, head_linear=plain_linear):
        super().__init__()
        h = cfg["hidden_size"]
        self.embed_tokens = nn.Embedding(cfg["vocab_size"], h)
        self.blocks = nn.ModuleList(LlamaBlock(cfg, linear, fused_qkv) for _ in range(cfg["num_hidden_layers"]))
        self.norm = RmsNorm(h)
        self.lm_head = head_linear("lm_head", h, cfg["vocab_size"])
        self.d = h // cfg["num_attention_heads"]

    def rope(self, s, dtype):
        inv = 1.0 / (10000 ** (torch.arange(0, self.d, 2).float() / self.d))
        freqs = torch.outer(torch.arange(s).float(), inv)
        emb = torch.cat((freqs, freqs), dim=-1)
        return emb.cos().to(dtype), emb.sin().to(dtype)

    def body(self, ids, ckpt, cache=None):
        x = self.embed_tokens(ids)
        cos, sin = self.rope(ids.shape[1], x.dtype)
        for block in self.blocks:
            if ckpt:
                x = checkpoint(block, x, cos, sin)
            else:
                x = block(x, cos, sin, cache)
        return self.norm(x)

    def head(self, x):
        return self.lm_head(x)


# --------------------------------------------------------------------------
# Adapter training as the stacks run it, for the same Llama blocks.

class FourBitMatMul(torch.autograd.Function):
    """bitsandbytes MatMul4Bit / torchao LinearNF4 as autograd sees them: the
    weight is dequantised per call, forward and backward, and only the
    packed weight is kept. bitsandbytes <= 0.43.1 also kept the input
    (ctx.tensors = (A, B)); kept here with save_for_backward so that the
    counter sees it (a ctx attribute holds it alive just the same)."""

    @staticmethod
    def forward(ctx, a, layer):
        ctx.layer = layer
        if layer.keeps_input:
            ctx.save_for_backward(a)
        return F.linear(a, layer.dequantize(a.dtype))

    @staticmethod
    def backward(ctx, grad):
        return grad @ ctx.layer.dequantize(grad.dtype), None


class FourBitLinear(nn.Module):
    """A frozen 4-bit projection. bitsandbytes Linear4bit casts its input to
    compute_dtype and its output back to the input's dtype
    (`.to(inp_dtype)`); torchao's linear_nf4 computes in the input's dtype."""

    def __init__(self, inp, out, casts, keeps_input):
        super().__init__()
        self.register_buffer("packed", torch.randint(0, 256, (out * inp // 2,), dtype=torch.uint8))
        self.shape = (out, inp)
        self.casts = casts
        self.keeps_input = keeps_input

    def dequantize(self, dtype):
        return self.packed.repeat_interleave(2).view(self.shape).to(dtype) / 255.0

    def forward(self, x):
        if not self.casts:
            return FourBitMatMul.apply(x, self)
        return FourBitMatMul.apply(x.to(torch.bfloat16), self).to(x.dtype)


class Adapter(nn.Module):
    """lora_B(lora_A(dropout(x))) (Hu et al. 2021). PEFT first casts x to the
    adapters' dtype (lora/layer.py _cast_input_dtype); the output is added
    to the base layer's and cast back to its dtype."""

    def __init__(self, inp, out, rank, dtype, p):
        super().__init__()
        self.lora_A = nn.Linear(inp, rank, bias=False).to(dtype)
        self.lora_B = nn.Linear(rank, out, bias=False).to(dtype)
        self.p = p

    def forward(self, x):
        x = x.to(self.lora_A.weight.dtype)
        return self.lora_B(self.lora_A(dropout(x, self.p, self.training)))


class Adapted(nn.Module):
    def __init__(self, base, adapter):
        super().__init__()
        self.base = base
        self.adapter = adapter

    def forward(self, x):
        result = self.base(x)
        return (result + self.adapter(x)).to(result.dtype)


class FusedQkvAdapter(nn.Module):
    """LitGPT LoRAQKVLinear: one dropout and one lora_A for the enabled
    slots of the fused qkv input; each slot's lora_B reads its share of
    lora_A's output; zero_pad fills the slots without an adapter."""

    def __init__(self, inp, widths, enabled, rank, dtype, p):
        super().__init__()
        self.lora_A = nn.Linear(inp, rank * len(enabled), bias=False).to(dtype)
        self.lora_B = nn.ModuleList(nn.Linear(rank, widths[i], bias=False).to(dtype) for i in enabled)
        self.widths, self.enabled, self.rank, self.p = widths, enabled, rank, p

    def forward(self, x):
        after_a = self.lora_A(dropout(x, self.p, self.training))
        parts = [torch.zeros(*x.shape[:-1], w, dtype=x.dtype) for w in self.widths]
        for n, (i, b) in enumerate(zip(self.enabled, self.lora_B)):
            parts[i] = b(after_a[..., n * self.rank:(n + 1) * self.rank])
        return torch.cat(parts, dim=-1)


# Each stack's LoRA/QLoRA run: base layers, adapter dtype and dropout, what
# is fp32, and the engine arguments that describe the same run.
ADAPTER_RUNS = [
    # PEFT LoRA on a bf16 base: fp32 adapters (autocast_adapter_dtype), each
    # casting its input.
    ("hf-lora", dict(four_bit=None, fp32_rest=False, adapter_dtype=torch.float32, targets="all", p=0.0),
     ["--mode", "lora", "--stack", "hf", "--weights", "bf16", "--lora-targets", "all", "--lora-dropout", "0"]),
    ("hf-lora-dropout-qv", dict(four_bit=None, fp32_rest=False, adapter_dtype=torch.float32, targets="q,v", p=0.1),
     ["--mode", "lora", "--stack", "hf", "--weights", "bf16", "--lora-targets", "q,v", "--lora-dropout", "0.1"]),
    # PEFT QLoRA after prepare_model_for_kbit_training: fp32 embeddings,
    # norms and lm_head; Linear4bit computes in bf16 and returns fp32.
    ("hf-qlora", dict(four_bit="bnb", keeps=False, fp32_rest=True, adapter_dtype=torch.float32, targets="all", p=0.1),
     ["--mode", "qlora", "--stack", "hf", "--weights", "nf4", "--lora-targets", "all", "--lora-dropout", "0.1"]),
    ("hf-qlora-bnb-legacy", dict(four_bit="bnb", keeps=True, fp32_rest=True, adapter_dtype=torch.float32, targets="all", p=0.1),
     ["--mode", "qlora", "--stack", "hf", "--weights", "nf4", "--lora-targets", "all", "--lora-dropout", "0.1",
      "--bnb", "legacy"]),
    # torchtune: bf16 adapters, torchao NF4 layers.
    ("torchtune-qlora", dict(four_bit="torchao", keeps=False, fp32_rest=False, adapter_dtype=torch.bfloat16,
                             targets="q,v,o,gate,up,down", p=0.0),
     ["--mode", "qlora", "--stack", "torchtune", "--weights", "nf4-dq", "--lora-targets", "q,v,o,gate,up,down",
      "--lora-dropout", "0"]),
    # LitGPT: fused qkv with one adapter for q and v, every linear 4-bit
    # (lm_head too), bitsandbytes <= 0.43.1 keeping inputs.
    ("litgpt-qlora-bnb-legacy", dict(four_bit="bnb", keeps=True, fp32_rest=False, adapter_dtype=torch.bfloat16,
                                     targets="q,v", p=0.05, fused=True),
     ["--mode", "qlora", "--stack", "litgpt", "--weights", "nf4", "--lora-targets", "q,v", "--lora-dropout", "0.05",
      "--bnb", "legacy"]),
]


def adapter_model(cfg, run, rank):
    targets = ["q", "k", "v", "o", "gate", "up", "down"] if run["targets"] == "all" else run["targets"].split(",")
    four_bit = run["four_bit"]

    def base(inp, out):
        if four_bit is None:
            return nn.Linear(inp, out, bias=False)
        return FourBitLinear(inp, out, casts=four_bit == "bnb", keeps_input=run.get("keeps", False))

    def linear(name, inp, out):
        if name == "qkv":
            widths = [cfg["num_attention_heads"], cfg["num_key_value_heads"], cfg["num_key_value_heads"]]
            d = cfg["hidden_size"] // cfg["num_attention_heads"]
            widths = [w * d for w in widths]
            enabled = [i for i, slot in enumerate("qkv") if slot in targets]
            return Adapted(base(inp, out), FusedQkvAdapter(inp, widths, enabled, rank, run["adapter_dtype"], run["p"]))
        layer = base(inp, out)
        if name in targets:
            return Adapted(layer, Adapter(inp, out, rank, run["adapter_dtype"], run["p"]))
        return layer

    head = (lambda name, inp, out: base(inp, out)) if run.get("fused") else plain_linear
    model = Llama(cfg, linear, fused_qkv=run.get("fused", False), head_linear=head).to(torch.bfloat16)
    if run["fp32_rest"]:
        for module in [model.embed_tokens, model.norm, model.lm_head] + [
                n for blk in model.blocks for n in (blk.input_layernorm, blk.post_attention_layernorm)]:
            module.float()
    for name, p in model.named_parameters():
        p.requires_grad = "lora_" in name
        if "lora_" in name:
            p.data = p.data.to(run["adapter_dtype"])
    return model


def measure_adapters(cfg, run, batch, seq, rank):
    torch.manual_seed(0)
    model = adapter_model(cfg, run, rank)
    model.train()
    return saved_bytes(model, cfg["vocab_size"], batch, seq, False)


# --------------------------------------------------------------------------
# Exact accounting.

def storage_key(t):
    return t.untyped_storage().data_ptr() if hasattr(t, "untyped_storage") else t.storage().data_ptr()


def storage_bytes(t):
    return t.untyped_storage().nbytes() if hasattr(t, "untyped_storage") else t.storage().nbytes()


class SavedTensors:
    """Counts the storages autograd saves for backward, each once,
    leaving out parameters (they exist anyway)."""

    def __init__(self, model):
        self.params = {storage_key(p) for p in list(model.parameters()) + list(model.buffers())}
        self.seen = {}
        self.bucket = "total"
        self.buckets = {}

    def pack(self, t):
        key = storage_key(t)
        if key not in self.params and key not in self.seen:
            self.seen[key] = self.bucket
            self.buckets[self.bucket] = self.buckets.get(self.bucket, 0) + storage_bytes(t)
        return t

    @staticmethod
    def unpack(t):
        return t


def tensor_bytes(tensors):
    seen = {}
    for t in tensors:
        seen[storage_key(t)] = storage_bytes(t)
    return sum(seen.values())


OPTIMIZERS = {
    "adamw": lambda p: torch.optim.AdamW(p, lr=1e-3),
    "adam-amsgrad": lambda p: torch.optim.Adam(p, lr=1e-3, amsgrad=True),
    "sgd-momentum": lambda p: torch.optim.SGD(p, lr=1e-3, momentum=0.9),
    "adagrad": lambda p: torch.optim.Adagrad(p, lr=1e-3),
    "rmsprop": lambda p: torch.optim.RMSprop(p, lr=1e-3),
}


def saved_bytes(model, vocab, batch, seq, ckpt):
    """Saved-for-backward bytes of one training step: the last layer's, the
    loss head's and all of them (then runs backward). The last layer stands
    for every layer: with a frozen base, layer 0's input needs no gradient
    (the embeddings are frozen), so layer 0 saves less."""
    ids = torch.randint(0, vocab, (batch, seq))
    counter = SavedTensors(model)
    last_block = model.blocks[-1]
    last_block.register_forward_pre_hook(lambda m, a: setattr(counter, "bucket", "layer"))
    last_block.register_forward_hook(lambda m, a, o: setattr(counter, "bucket", "total"))
    with torch.autograd.graph.saved_tensors_hooks(counter.pack, counter.unpack):
        hidden = model.body(ids, ckpt)
        counter.bucket = "head"
        logits = model.head(hidden)
        # Hugging Face ForCausalLMLoss: upcast, then cross-entropy.
        loss = F.cross_entropy(logits.float().view(-1, vocab), ids.view(-1))
    loss.backward()
    buckets = counter.buckets
    return {
        "saved_layer_bytes": buckets.get("layer", 0),
        "saved_head_bytes": buckets.get("head", 0),
        "saved_total_bytes": sum(buckets.values()),
    }


def measure_training(kind, cfg, dtype, batch, seq, ckpt, optimizer):
    torch.manual_seed(0)
    model = (Gpt if kind == "gpt" else Llama)(cfg).to(dtype)
    model.train()
    saved = saved_bytes(model, cfg["vocab_size"], batch, seq, ckpt)
    params = list(model.parameters())
    opt = OPTIMIZERS[optimizer](params)
    opt.step()
    # Step counters (one scalar per parameter tensor) are left out.
    states = [t for st in opt.state.values() for t in st.values() if torch.is_tensor(t) and t.numel() > 1]
    return {
        "param_bytes": tensor_bytes(params),
        "grad_bytes": tensor_bytes([p.grad for p in params]),
        "optimizer_bytes": tensor_bytes(states),
        **saved,
    }


def measure_kv(cfg, dtype, batch, seq):
    torch.manual_seed(0)
    model = Llama(cfg).to(dtype).eval()
    cache = []
    with torch.no_grad():
        model.body(torch.randint(0, cfg["vocab_size"], (batch, seq)), False, cache)
    return {"kv_cache_bytes": tensor_bytes([t for kv in cache for t in kv])}


def gpt_config(dropout):
    return {"model_type": "gpt2", "n_embd": 256, "n_head": 4, "n_layer": 2, "n_inner": 1024, "vocab_size": 1000,
            "n_positions": 256, "activation_function": "gelu", "attn_pdrop": dropout, "resid_pdrop": dropout,
            "embd_pdrop": dropout, "tie_word_embeddings": True}


def llama_config():
    return {"model_type": "llama", "hidden_size": 256, "num_attention_heads": 8, "num_key_value_heads": 2,
            "num_hidden_layers": 2, "intermediate_size": 688, "vocab_size": 1000, "max_position_embeddings": 1024,
            "hidden_act": "silu", "tie_word_embeddings": False, "attention_dropout": 0.0}


def cpu_grid():
    cases = []
    batch, seq = 2, 128
    for dtype_name, dtype, regime in (("fp32", torch.float32, "fp32"), ("bf16", torch.bfloat16, "bf16-pure")):
        models = [("gpt", gpt_config(0.0), "drop0"), ("gpt", gpt_config(0.1), "drop0.1"), ("llama", llama_config(), "gqa")]
        for kind, cfg, variant in models:
            for ckpt in (False, True):
                for optimizer in (("adamw", "sgd-momentum") if not ckpt else ("adamw",)):
                    cases.append((kind, cfg, variant, dtype_name, dtype, regime, batch, seq, ckpt, optimizer))
    for optimizer in ("adam-amsgrad", "adagrad", "rmsprop"):
        cases.append(("llama", llama_config(), "gqa", "fp32", torch.float32, "fp32", batch, seq, False, optimizer))
    return cases


def run_cpu(out):
    results = []
    for kind, cfg, variant, dtype_name, dtype, regime, batch, seq, ckpt, optimizer in cpu_grid():
        case_id = f"{kind}-{variant}-{dtype_name}-{'ckpt' if ckpt else 'nockpt'}-{optimizer}"
        measured = measure_training(kind, cfg, dtype, batch, seq, ckpt, optimizer)
        args = ["--mode", "train", "--regime", regime, "--optimizer", optimizer, "--batch", str(batch), "--seq",
                str(seq), "--attention", "eager", "--checkpointing", "full" if ckpt else "none", "--logits", "fp32"]
        results.append({"id": case_id, "config": cfg, "args": args, "measured": measured})
        print(f"{case_id}: {measured}", flush=True)
    for run_id, run, args in ADAPTER_RUNS:
        measured = measure_adapters(llama_config(), run, batch=2, seq=128, rank=8)
        results.append({"id": f"llama-gqa-{run_id}", "config": llama_config(), "measured": measured,
                        "args": args + ["--regime", "bf16-pure", "--lora-rank", "8", "--batch", "2", "--seq", "128",
                                        "--attention", "eager", "--checkpointing", "none", "--logits", "fp32"]})
        print(f"{run_id}: {measured}", flush=True)
    for dtype_name, dtype in (("fp32", torch.float32), ("bf16", torch.bfloat16)):
        measured = measure_kv(llama_config(), dtype, 3, 200)
        fmt = "fp32" if dtype_name == "fp32" else "bf16"
        results.append({"id": f"llama-gqa-kv-{dtype_name}", "config": llama_config(),
                        "args": ["--mode", "inference", "--weights", fmt, "--batch", "3", "--seq", "200"],
                        "measured": measured})
    doc = {
        "schema_version": 1,
        "generated_by": "tests/validation/measure_torch.py (CPU mode)",
        "device": "cpu",
        "torch_version": torch.__version__,
        "python_version": sys.version.split()[0],
        "date": time.strftime("%Y-%m-%d"),
        "notes": "Exact byte counts on CPU. saved_*: storages autograd saves for backward (each once, parameters "
                 "excluded); saved_head_bytes holds the lm_head input and the loss's saved log-softmax output. "
                 "Optimizer step counters (scalars) are excluded.",
        "cases": results,
    }
    with open(out, "w") as f:
        json.dump(doc, f, indent=1)
    print(f"wrote {len(results)} cases to {out}")


# --------------------------------------------------------------------------
# CUDA mode: real peaks on a GPU, Hugging Face models from config.

def adapter_training(model, vocab, device):
    """Two AdamW steps over the trainable (adapter) parameters only, as the
    LoRA and QLoRA measurements run them; returns the step for peak()."""
    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-4)
    ids = torch.randint(0, vocab, (1, 2048), device=device)

    def step():
        for _ in range(2):
            model(input_ids=ids, labels=ids).loss.backward()
            opt.step()
            opt.zero_grad(set_to_none=True)
    return step


def bitsandbytes_legacy():
    """bitsandbytes <= 0.43.1 kept every 4-bit layer's input (MatMul4Bit)."""
    import bitsandbytes
    version = tuple(int(part) for part in bitsandbytes.__version__.split(".")[:3] if part.isdigit())
    return version <= (0, 43, 1)


def run_cuda(out):
    import transformers
    from transformers import AutoConfig, AutoModelForCausalLM

    device = torch.device("cuda")
    torch.cuda.init()
    free, total = torch.cuda.mem_get_info()
    context = total - free  # the process's CUDA context before any tensor
    results = []
    sizes = {
        "qwen2.5-0.5b": {"model_type": "qwen2", "hidden_size": 896, "intermediate_size": 4864, "num_hidden_layers": 24,
                         "num_attention_heads": 14, "num_key_value_heads": 2, "vocab_size": 151936,
                         "tie_word_embeddings": True, "max_position_embeddings": 32768},
        "llama-3-8b": {"model_type": "llama", "hidden_size": 4096, "intermediate_size": 14336, "num_hidden_layers": 32,
                       "num_attention_heads": 32, "num_key_value_heads": 8, "vocab_size": 128256,
                       "tie_word_embeddings": False, "max_position_embeddings": 8192},
    }

    def model_from(cfg, dtype, attn):
        config = AutoConfig.for_model(**cfg)
        config._attn_implementation = attn
        with torch.device(device):
            return AutoModelForCausalLM.from_config(config, torch_dtype=dtype)

    def peak(fn):
        torch.cuda.empty_cache()
        torch.cuda.reset_peak_memory_stats()
        fn()
        torch.cuda.synchronize()
        return {"max_allocated": torch.cuda.max_memory_allocated(), "max_reserved": torch.cuda.max_memory_reserved()}

    for name, cfg in sizes.items():
        for batch, seq in ((1, 512), (4, 2048)):
            model = model_from(cfg, torch.bfloat16, "sdpa")
            ids = torch.randint(0, cfg["vocab_size"], (batch, seq), device=device)
            measured = peak(lambda: model.generate(ids, max_new_tokens=32, do_sample=False, min_new_tokens=32))
            results.append({"id": f"{name}-generate-b{batch}-s{seq}", "config": cfg, "measured": measured,
                            "args": ["--mode", "inference", "--weights", "bf16", "--batch", str(batch),
                                     "--seq", str(seq + 32), "--attention", "sdpa"]})
            del model
        for regime, dtype in (("bf16-pure", torch.bfloat16), ("amp", torch.float32)):
            if name == "llama-3-8b" and regime == "amp":
                continue  # fp32 weights + AdamW for 8B exceed one GPU
            for ckpt in (False, True):
                model = model_from(cfg, dtype, "sdpa")
                if ckpt:
                    model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
                opt = torch.optim.AdamW(model.parameters(), lr=1e-5, fused=True)
                ids = torch.randint(0, cfg["vocab_size"], (1, 2048), device=device)

                def step():
                    for _ in range(2):
                        with torch.autocast("cuda", dtype=torch.bfloat16, enabled=regime == "amp"):
                            loss = model(input_ids=ids, labels=ids).loss
                        loss.backward()
                        opt.step()
                        opt.zero_grad(set_to_none=True)

                measured = peak(step)
                results.append({"id": f"{name}-train-{regime}-{'ckpt' if ckpt else 'nockpt'}", "config": cfg,
                                "measured": measured,
                                "args": ["--mode", "train", "--regime", regime, "--optimizer", "adamw",
                                         "--optimizer-impl", "fused", "--batch", "1", "--seq", "2048",
                                         "--checkpointing", "full" if ckpt else "none", "--attention", "sdpa"]})
                del model, opt
    try:
        import peft
        for name, cfg in sizes.items():
            for ckpt in (False, True):
                model = model_from(cfg, torch.bfloat16, "sdpa")
                if ckpt:
                    model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
                    model.enable_input_require_grads()
                lora = peft.LoraConfig(r=16, lora_alpha=32, target_modules="all-linear", lora_dropout=0.0)
                model = peft.get_peft_model(model, lora)
                measured = peak(adapter_training(model, cfg["vocab_size"], device))
                results.append({"id": f"{name}-lora-{'ckpt' if ckpt else 'nockpt'}", "config": cfg, "measured": measured,
                                "args": ["--mode", "lora", "--stack", "hf", "--regime", "bf16-pure", "--lora-rank", "16",
                                         "--lora-dropout", "0", "--batch", "1", "--seq", "2048",
                                         "--checkpointing", "full" if ckpt else "none", "--attention", "sdpa",
                                         "--optimizer-impl", "foreach"]})
                del model
    except ImportError:
        pass
    try:
        # QLoRA-style: the base saved once with random weights, reloaded in
        # NF4 with double quantisation (from_config cannot quantise).
        import bitsandbytes  # noqa: F401
        import peft
        from transformers import BitsAndBytesConfig
        import tempfile
        cfg = sizes["qwen2.5-0.5b"]
        with tempfile.TemporaryDirectory() as folder:
            model_from(cfg, torch.bfloat16, "sdpa").save_pretrained(folder)
            torch.cuda.empty_cache()
            quant = BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type="nf4", bnb_4bit_use_double_quant=True,
                                       bnb_4bit_compute_dtype=torch.bfloat16)
            for ckpt in (False, True):
                model = AutoModelForCausalLM.from_pretrained(folder, quantization_config=quant, device_map={"": 0},
                                                             torch_dtype=torch.bfloat16)
                model = peft.prepare_model_for_kbit_training(model, use_gradient_checkpointing=ckpt)
                model = peft.get_peft_model(model, peft.LoraConfig(r=16, lora_alpha=32, target_modules="all-linear"))
                measured = peak(adapter_training(model, cfg["vocab_size"], device))
                results.append({"id": f"qwen2.5-0.5b-qlora-{'ckpt' if ckpt else 'nockpt'}", "config": cfg,
                                "measured": measured,
                                "args": ["--mode", "qlora", "--stack", "hf", "--weights", "nf4-dq", "--regime", "bf16-pure",
                                         "--lora-rank", "16", "--lora-dropout", "0", "--batch", "1", "--seq", "2048",
                                         "--checkpointing", "full" if ckpt else "none", "--attention", "sdpa",
                                         "--optimizer-impl", "foreach", "--bnb",
                                         "legacy" if bitsandbytes_legacy() else "current"]})
                del model
    except ImportError:
        pass
    doc = {
        "schema_version": 1,
        "generated_by": "tests/validation/measure_torch.py --cuda",
        "device": torch.cuda.get_device_name(0),
        "cuda_context_bytes": context,
        "torch_version": torch.__version__,
        "transformers_version": transformers.__version__,
        "cuda_version": torch.version.cuda,
        "date": time.strftime("%Y-%m-%d"),
        "cases": results,
    }
    with open(out, "w") as f:
        json.dump(doc, f, indent=1)
    print(f"wrote {len(results)} cases to {out}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cuda", action="store_true", help="measure real peaks on a CUDA GPU")
    parser.add_argument("--out", help="output JSON (default: tests/validation/torch-{cpu,cuda}-results.json)")
    args = parser.parse_args()
    out = args.out or os.path.join(HERE, "torch-cuda-results.json" if args.cuda else "torch-cpu-results.json")
    if args.cuda:
        run_cuda(out)
    else:
        run_cpu(out)


if __name__ == "__main__":
    main()
