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


class LlamaBlock(nn.Module):
    """modeling_llama.LlamaDecoderLayer, eager attention."""

    def __init__(self, cfg):
        super().__init__()
        h = cfg["hidden_size"]
        self.heads = cfg["num_attention_heads"]
        self.kv = cfg["num_key_value_heads"]
        self.d = h // self.heads
        self.q_proj = nn.Linear(h, self.heads * self.d, bias=False)
        self.k_proj = nn.Linear(h, self.kv * self.d, bias=False)
        self.v_proj = nn.Linear(h, self.kv * self.d, bias=False)
        self.o_proj = nn.Linear(self.heads * self.d, h, bias=False)
        self.gate_proj = nn.Linear(h, cfg["intermediate_size"], bias=False)
        self.up_proj = nn.Linear(h, cfg["intermediate_size"], bias=False)
        self.down_proj = nn.Linear(cfg["intermediate_size"], h, bias=False)
        self.input_layernorm = RmsNorm(h)
        self.post_attention_layernorm = RmsNorm(h)

    def forward(self, x, cos, sin, cache=None):
        b, s, _ = x.shape
        residual = x
        x = self.input_layernorm(x)
        q = self.q_proj(x).view(b, s, self.heads, self.d).transpose(1, 2)
        k = self.k_proj(x).view(b, s, self.kv, self.d).transpose(1, 2)
        v = self.v_proj(x).view(b, s, self.kv, self.d).transpose(1, 2)
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
    def __init__(self, cfg):
        super().__init__()
        h = cfg["hidden_size"]
        self.embed_tokens = nn.Embedding(cfg["vocab_size"], h)
        self.blocks = nn.ModuleList(LlamaBlock(cfg) for _ in range(cfg["num_hidden_layers"]))
        self.norm = RmsNorm(h)
        self.lm_head = nn.Linear(h, cfg["vocab_size"], bias=False)
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
# Exact accounting.

def storage_key(t):
    return t.untyped_storage().data_ptr() if hasattr(t, "untyped_storage") else t.storage().data_ptr()


def storage_bytes(t):
    return t.untyped_storage().nbytes() if hasattr(t, "untyped_storage") else t.storage().nbytes()


class SavedTensors:
    """Counts the storages autograd saves for backward, each once,
    leaving out parameters (they exist anyway)."""

    def __init__(self, model):
        self.params = {storage_key(p) for p in model.parameters()}
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


def measure_training(kind, cfg, dtype, batch, seq, ckpt, optimizer):
    torch.manual_seed(0)
    model = (Gpt if kind == "gpt" else Llama)(cfg).to(dtype)
    model.train()
    vocab = cfg["vocab_size"]
    ids = torch.randint(0, vocab, (batch, seq))
    counter = SavedTensors(model)
    first_block = model.blocks[0]
    first_block.register_forward_pre_hook(lambda m, a: setattr(counter, "bucket", "layer0"))
    first_block.register_forward_hook(lambda m, a, o: setattr(counter, "bucket", "total"))
    with torch.autograd.graph.saved_tensors_hooks(counter.pack, counter.unpack):
        hidden = model.body(ids, ckpt)
        counter.bucket = "head"
        logits = model.head(hidden)
        # Hugging Face ForCausalLMLoss: upcast, then cross-entropy.
        loss = F.cross_entropy(logits.float().view(-1, vocab), ids.view(-1))
    loss.backward()
    params = list(model.parameters())
    opt = OPTIMIZERS[optimizer](params)
    opt.step()
    # Step counters (one scalar per parameter tensor) are left out.
    states = [t for st in opt.state.values() for t in st.values() if torch.is_tensor(t) and t.numel() > 1]
    buckets = counter.buckets
    return {
        "param_bytes": tensor_bytes(params),
        "grad_bytes": tensor_bytes([p.grad for p in params]),
        "optimizer_bytes": tensor_bytes(states),
        "saved_layer0_bytes": buckets.get("layer0", 0),
        "saved_head_bytes": buckets.get("head", 0),
        "saved_total_bytes": sum(buckets.values()),
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
                                "args": ["--mode", "lora", "--regime", "fp32", "--lora-rank", "16", "--batch", "1",
                                         "--seq", "2048", "--checkpointing", "full" if ckpt else "none",
                                         "--attention", "sdpa"]})
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
                                "args": ["--mode", "qlora", "--weights", "nf4-dq", "--regime", "fp32", "--lora-rank", "16",
                                         "--batch", "1", "--seq", "2048", "--checkpointing", "full" if ckpt else "none",
                                         "--attention", "sdpa"]})
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
