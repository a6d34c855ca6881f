#!/usr/bin/env python3
"""Measure what a real llama.cpp allocates, for VRAM Planner's accuracy tests.

Writes small GGUF files (version 3, zero tensor data, a SentencePiece-style
vocabulary so that llama.cpp's tokenizer loads), loads each in the llama.cpp
that node-llama-cpp bundles, on the CPU (`getLlama({gpu: false})` with debug
logging, tests/validation/llamacpp_load.mjs), and records llama.cpp's own
buffer lines: the model buffers (CPU_Mapped, CPU_REPACK), the KV cache (K and
V separately), the output buffer and the CPU compute buffer.

Needs python3 and node >= 20 with node-llama-cpp installed:
    npm i -E node-llama-cpp@3.21.1            (in some folder DIR)
    tests/validation/measure_llamacpp.py --node-modules DIR/node_modules

Writes tests/validation/llamacpp-cpu-results.json: the llama.cpp release and
source commit, then per case the settings, the model's tensor table (name,
ggml type, ne, bytes), the context llama.cpp really made (n_ctx, n_ctx_seq, n_ubatch ...), the
whole log and the parsed buffers.  tests/core
reads the committed file; CI needs no node.  Cases with "held_back": true
were measured before the CPU compute model was changed and are compared
only afterwards (issue 27: fit no constant to the grid).
"""

import argparse
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.join(HERE, "llamacpp-cpu-results.json")

# --------------------------------------------------------------------------
# ggml types (ggml/include/ggml.h) and their blocks (ggml/src/ggml.c,
# type_traits: blck_size, type_size).
GGML = {
    "F32": (0, 1, 4),
    "F16": (1, 1, 2),
    "Q4_0": (2, 32, 18),
    "Q8_0": (8, 32, 34),
    "Q4_K": (12, 256, 144),
    "Q6_K": (14, 256, 210),
    "IQ4_NL": (20, 32, 18),
    "BF16": (30, 1, 2),
}


def tensor_bytes(ggml_type, ne):
    _, block, size = GGML[ggml_type]
    count = 1
    for n in ne:
        count *= n
    assert ne[0] % block == 0, (ggml_type, ne)
    return count // block * size


# --------------------------------------------------------------------------
# GGUF version 3 (ggml docs/gguf.md).
T_U32, T_I32, T_F32, T_BOOL, T_STRING, T_ARRAY = 4, 5, 6, 7, 8, 9
ALIGNMENT = 32


def gguf_string(text):
    data = text.encode("utf-8")
    return struct.pack("<Q", len(data)) + data


def gguf_value(value):
    if isinstance(value, bool):
        return struct.pack("<I?", T_BOOL, value)
    if isinstance(value, int):
        return struct.pack("<Ii", T_I32, value) if value < 0 else struct.pack("<II", T_U32, value)
    if isinstance(value, float):
        return struct.pack("<If", T_F32, value)
    if isinstance(value, str):
        return struct.pack("<I", T_STRING) + gguf_string(value)
    if isinstance(value, tuple):  # (element type, values)
        kind, items = value
        out = struct.pack("<IIQ", T_ARRAY, kind, len(items))
        for item in items:
            if kind == T_STRING:
                out += gguf_string(item)
            elif kind == T_F32:
                out += struct.pack("<f", item)
            elif kind == T_I32:
                out += struct.pack("<i", item)
            elif kind == T_BOOL:
                out += struct.pack("<?", item)
            else:
                out += struct.pack("<I", item)
        return out
    raise TypeError(value)


def write_gguf(path, metadata, tensors):
    """tensors: [(name, ggml type, ne)]; the data are zeros (a sparse file)."""
    head = b"GGUF" + struct.pack("<IQQ", 3, len(tensors), len(metadata))
    for key, value in metadata.items():
        head += gguf_string(key) + gguf_value(value)
    offset = 0
    table = []
    for name, ggml_type, ne in tensors:
        size = tensor_bytes(ggml_type, ne)
        head += gguf_string(name) + struct.pack("<I", len(ne)) + b"".join(struct.pack("<Q", n) for n in ne)
        head += struct.pack("<IQ", GGML[ggml_type][0], offset)
        table.append({"name": name, "type": ggml_type, "ne": list(ne), "bytes": size})
        offset += (size + ALIGNMENT - 1) // ALIGNMENT * ALIGNMENT
    head += b"\0" * ((ALIGNMENT - len(head) % ALIGNMENT) % ALIGNMENT)
    with open(path, "wb") as f:
        f.write(head)
        f.truncate(len(head) + offset)
    return table


def spm_vocabulary(size):
    """<unk>, <s>, </s>, the 256 byte tokens, then plain pieces: what
    llama.cpp's SPM tokenizer needs to load (llama-vocab.cpp)."""
    tokens = ["<unk>", "<s>", "</s>"] + ["<0x%02X>" % b for b in range(256)]
    types = [2, 3, 3] + [6] * 256
    while len(tokens) < size:
        tokens.append("\u2581t%d" % len(tokens))
        types.append(1)
    return {
        "tokenizer.ggml.model": "llama",
        "tokenizer.ggml.tokens": (T_STRING, tokens),
        "tokenizer.ggml.scores": (T_F32, [-float(i) for i in range(size)]),
        "tokenizer.ggml.token_type": (T_I32, types),
        "tokenizer.ggml.bos_token_id": 1,
        "tokenizer.ggml.eos_token_id": 2,
        "tokenizer.ggml.unknown_token_id": 0,
    }


# --------------------------------------------------------------------------
# Models, named as llama.cpp's tensor names (gguf-py constants.py).

def decoder(arch, hidden, layers, heads, kv_heads, ff, vocab, wtype, tied=False, head_dim=None,
            qkv_bias=False, qk_norm=False, post_norms=False, experts=0, experts_used=0, expert_ff=0,
            sliding_window=0, extra=None):
    head_dim = head_dim or hidden // heads
    meta = {
        "general.architecture": arch,
        "general.name": "vramplanner-%s" % arch,
        arch + ".context_length": 8192,
        arch + ".embedding_length": hidden,
        arch + ".block_count": layers,
        arch + ".feed_forward_length": ff,
        arch + ".attention.head_count": heads,
        arch + ".attention.head_count_kv": kv_heads,
        arch + ".attention.layer_norm_rms_epsilon": 1e-6,
        arch + ".attention.key_length": head_dim,
        arch + ".attention.value_length": head_dim,
        arch + ".rope.freq_base": 10000.0,
    }
    if experts:
        meta[arch + ".expert_count"] = experts
        meta[arch + ".expert_used_count"] = experts_used
        meta[arch + ".expert_feed_forward_length"] = expert_ff
    if sliding_window:
        meta[arch + ".attention.sliding_window"] = sliding_window
    meta.update(extra or {})
    meta.update(spm_vocabulary(vocab))
    norm = "F32"
    t = [("token_embd.weight", wtype, [hidden, vocab])]
    for i in range(layers):
        b = "blk.%d." % i
        t.append((b + "attn_norm.weight", norm, [hidden]))
        t.append((b + "attn_q.weight", wtype, [hidden, heads * head_dim]))
        t.append((b + "attn_k.weight", wtype, [hidden, kv_heads * head_dim]))
        t.append((b + "attn_v.weight", wtype, [hidden, kv_heads * head_dim]))
        if qkv_bias:
            t.append((b + "attn_q.bias", norm, [heads * head_dim]))
            t.append((b + "attn_k.bias", norm, [kv_heads * head_dim]))
            t.append((b + "attn_v.bias", norm, [kv_heads * head_dim]))
        if qk_norm:
            t.append((b + "attn_q_norm.weight", norm, [head_dim]))
            t.append((b + "attn_k_norm.weight", norm, [head_dim]))
        t.append((b + "attn_output.weight", wtype, [heads * head_dim, hidden]))
        if post_norms:
            t.append((b + "post_attention_norm.weight", norm, [hidden]))
        t.append((b + "ffn_norm.weight", norm, [hidden]))
        if experts:
            t.append((b + "ffn_gate_inp.weight", norm, [hidden, experts]))
            t.append((b + "ffn_gate_exps.weight", wtype, [hidden, expert_ff, experts]))
            t.append((b + "ffn_up_exps.weight", wtype, [hidden, expert_ff, experts]))
            t.append((b + "ffn_down_exps.weight", wtype, [expert_ff, hidden, experts]))
        else:
            t.append((b + "ffn_gate.weight", wtype, [hidden, ff]))
            t.append((b + "ffn_up.weight", wtype, [hidden, ff]))
            t.append((b + "ffn_down.weight", wtype, [ff, hidden]))
        if post_norms:
            t.append((b + "post_ffw_norm.weight", norm, [hidden]))
    t.append(("output_norm.weight", norm, [hidden]))
    if not tied:
        t.append(("output.weight", wtype, [hidden, vocab]))
    return meta, t


MODELS = {
    # name: (decoder arguments)
    "llama-gqa": dict(arch="llama", hidden=1024, layers=4, heads=16, kv_heads=4, ff=2816, vocab=8192),
    "llama-mha": dict(arch="llama", hidden=512, layers=4, heads=8, kv_heads=8, ff=1536, vocab=4096),
    "llama-tied": dict(arch="llama", hidden=1024, layers=4, heads=16, kv_heads=4, ff=2816, vocab=8192, tied=True),
    "qwen2": dict(arch="qwen2", hidden=1024, layers=4, heads=16, kv_heads=2, ff=2816, vocab=16384, qkv_bias=True),
    "qwen3": dict(arch="qwen3", hidden=1024, layers=4, heads=16, kv_heads=8, ff=3072, vocab=16384, head_dim=128,
                  qk_norm=True),
    "gemma3": dict(arch="gemma3", hidden=1024, layers=6, heads=8, kv_heads=4, ff=4096, vocab=16384, head_dim=256,
                   qk_norm=True, post_norms=True, tied=True, sliding_window=512),
    "qwen3moe": dict(arch="qwen3moe", hidden=1024, layers=4, heads=16, kv_heads=4, ff=3072, vocab=16384,
                     head_dim=128, qk_norm=True, experts=16, experts_used=4, expert_ff=512),
}

# The CPU variants measured: ggml's x86 builds for AVX2 desktops and for
# AMX servers (ggml/src/CMakeLists.txt, GGML_CPU_ALL_VARIANTS).
CPU_VARIANTS = ("haswell", "sapphirerapids")


# The grid: (model, weight type, settings), settings as llamacpp_load.mjs
# takes them.  held_back cases are compared only after the model change.
def grid():
    cases = []

    def add(model, wtype, held_back=False, cpu="haswell", **settings):
        base = dict(contextSize=4096, batchSize=512, sequences=1, flashAttention=True, typeK="F16", typeV="F16")
        base.update(settings)
        cases.append({"model": model, "weights": wtype, "held_back": held_back, "cpu": cpu, "settings": base})

    for ctx in (512, 2048, 8192):
        for fa in (True, False):
            add("llama-gqa", "F16", contextSize=ctx, flashAttention=fa)
    for ub in (128, 256, 1024):
        add("llama-gqa", "F16", batchSize=ub)
    for wtype in ("Q8_0", "Q4_0", "Q4_K", "IQ4_NL"):
        add("llama-gqa", wtype)
    for wtype in ("F16", "Q8_0", "Q4_0", "Q4_K", "IQ4_NL"):
        add("llama-gqa", wtype, cpu="sapphirerapids")
    for tk, tv in (("Q8_0", "Q8_0"), ("Q4_0", "Q4_0"), ("Q8_0", "F16"), ("F16", "Q4_0")):
        add("llama-gqa", "F16", typeK=tk, typeV=tv)
    for seq in (2, 4):
        add("llama-gqa", "F16", sequences=seq, contextSize=2048 * seq)
    add("llama-mha", "F16", flashAttention=False, contextSize=2048)
    add("llama-mha", "Q4_0", contextSize=8192)
    add("llama-tied", "F16")
    add("llama-tied", "Q4_0", flashAttention=False)
    add("qwen2", "F16", contextSize=2048)
    add("qwen2", "Q8_0", flashAttention=False, contextSize=8192)
    add("qwen3", "F16")
    add("qwen3", "Q4_K", flashAttention=False, contextSize=1024)
    # Held back: a sliding-window model, a MoE, other shapes of the grid.
    add("gemma3", "F16", held_back=True)
    add("gemma3", "Q8_0", held_back=True, contextSize=8192, flashAttention=False)
    add("gemma3", "F16", held_back=True, contextSize=2048, sequences=2)
    add("qwen3moe", "F16", held_back=True)
    add("qwen3moe", "Q4_0", held_back=True, flashAttention=False, contextSize=2048)
    add("qwen3moe", "Q8_0", held_back=True, batchSize=256, typeK="Q8_0", typeV="Q8_0")
    add("qwen3moe", "Q4_K", held_back=True, cpu="sapphirerapids")
    add("llama-mha", "Q8_0", held_back=True, contextSize=4096, sequences=3, flashAttention=False, batchSize=384)
    add("llama-tied", "Q4_K", held_back=True, typeK="Q4_0", typeV="Q8_0", contextSize=3000)
    return cases


# --------------------------------------------------------------------------
# The log: llama.cpp's buffer lines (src/llama-model.cpp, llama-kv-cache.cpp,
# llama-context.cpp at the bundled release).
MIB = 1024.0 * 1024.0
MODEL_RE = re.compile(r"^load_tensors:\s+(\S+) model buffer size =\s+([0-9.]+) MiB")
KV_RE = re.compile(r"^llama_kv_cache:\s+(\S+) KV buffer size =\s+([0-9.]+) MiB")
KV_SPLIT_RE = re.compile(r"^llama_kv_cache: size =\s+([0-9.]+) MiB \(\s*(\d+) cells,\s+(\d+) layers,\s+(\d+)/(\d+) seqs\),"
                         r" K \((\S+)\):\s+([0-9.]+) MiB, V \((\S+)\):\s+([0-9.]+) MiB")
OUTPUT_RE = re.compile(r"^llama_context:\s+(\S+)\s+output buffer size =\s+([0-9.]+) MiB")
COMPUTE_RE = re.compile(r"^\S+:\s+(\S+) compute buffer size =\s+([0-9.]+) MiB")
# The context's destructor repeats the compute buffer with four decimals.
COMPUTE_EXACT_RE = re.compile(r"^~llama_context:\s+(\S+) compute buffer size is\s+([0-9.]+) MiB")
# What the context really got: node-llama-cpp's contextSize is per
# sequence and rounded up to 256, and its batch may be raised.
CONTEXT_RE = re.compile(r"^llama_context: (n_seq_max|n_ctx|n_ctx_seq|n_batch|n_ubatch|flash_attn|kv_unified)\s+= (\S+)")
BACKEND_RE = re.compile(r"^load_backend: loaded CPU backend from .*libggml-cpu-(\S+)\.so")


def parse(log):
    buffers = {"model": {}, "kv": {}, "kv_caches": [], "output": {}, "compute": {}, "compute_exact": {},
               "context": {}}
    for line in log.splitlines():
        line = line.strip()
        if m := MODEL_RE.match(line):
            buffers["model"][m.group(1)] = buffers["model"].get(m.group(1), 0.0) + float(m.group(2))
        elif m := KV_RE.match(line):
            buffers["kv"][m.group(1)] = buffers["kv"].get(m.group(1), 0.0) + float(m.group(2))
        elif m := KV_SPLIT_RE.match(line):
            buffers["kv_caches"].append({"mib": float(m.group(1)), "cells": int(m.group(2)), "layers": int(m.group(3)),
                                         "seqs": int(m.group(4)), "k_type": m.group(6), "k_mib": float(m.group(7)),
                                         "v_type": m.group(8), "v_mib": float(m.group(9))})
        elif m := OUTPUT_RE.match(line):
            buffers["output"][m.group(1)] = float(m.group(2))
        elif m := COMPUTE_RE.match(line):
            buffers["compute"][m.group(1)] = float(m.group(2))
        elif m := COMPUTE_EXACT_RE.match(line):
            buffers["compute_exact"][m.group(1)] = float(m.group(2))
        elif m := CONTEXT_RE.match(line):
            value = m.group(2)
            buffers["context"][m.group(1)] = int(value) if value.isdigit() else value
        elif m := BACKEND_RE.match(line):
            buffers["cpu_backend"] = m.group(1)
    return buffers


def measure(node_modules, workdir, case):
    path = os.path.join(workdir, "%s-%s.gguf" % (case["model"], case["weights"]))
    arguments = dict(MODELS[case["model"]])
    meta, tensors = decoder(wtype=case["weights"], **arguments)
    table = write_gguf(path, meta, tensors)
    settings = dict(case["settings"], model=path)
    # node-llama-cpp's logger now and then drops a line; a run missing one
    # of the buffers is run again.
    for attempt in range(5):
        run = subprocess.run(["node", os.path.join(HERE, "llamacpp_load.mjs"), node_modules, json.dumps(settings)],
                             capture_output=True, text=True, timeout=600)
        log = run.stdout + run.stderr
        if run.returncode != 0:
            sys.exit("llama.cpp failed on %s:\n%s" % (json.dumps(case), log[-4000:]))
        buffers = parse(log)
        if all(buffers[key] for key in ("model", "kv", "kv_caches", "output", "compute_exact", "context")):
            break
    else:
        sys.exit("llama.cpp's log lacks a buffer line five times on %s" % json.dumps(case))
    return {
        "model": case["model"],
        "architecture": arguments,
        "weights": case["weights"],
        "held_back": case["held_back"],
        "cpu": case["cpu"],
        "settings": case["settings"],
        "metadata": {key: value for key, value in meta.items() if not key.startswith("tokenizer.")},
        "tensors": table,
        "context": buffers.pop("context"),
        "buffers_mib": buffers,
        "log": log.splitlines(),
    }


def variant_view(node_modules, variant, workdir):
    """A node_modules whose prebuilt llama.cpp has one CPU variant only
    (ggml loads the best-scoring libggml-cpu-*.so it finds): `haswell` is
    AVX2 (most desktops), `sapphirerapids` has AMX.  node-llama-cpp and its
    binaries are copied, every other package linked."""
    view = os.path.join(workdir, "node_modules")
    os.makedirs(view)
    for entry in os.listdir(node_modules):
        source = os.path.join(node_modules, entry)
        if entry == "node-llama-cpp":
            shutil.copytree(source, os.path.join(view, entry), symlinks=True)
        elif entry == "@node-llama-cpp":
            os.mkdir(os.path.join(view, entry))
            platform = os.path.join(view, entry, "linux-x64")
            shutil.copytree(os.path.join(source, "linux-x64"), platform, symlinks=True)
            bins = os.path.join(platform, "bins", "linux-x64")
            wanted = "libggml-cpu-%s.so" % variant
            if not os.path.exists(os.path.join(bins, wanted)):
                sys.exit("no %s in %s" % (wanted, bins))
            for name in os.listdir(bins):
                if name.startswith("libggml-cpu-") and name != wanted:
                    os.remove(os.path.join(bins, name))
        else:
            os.symlink(source, os.path.join(view, entry))
    return view


def bundled_release(node_modules):
    info = os.path.join(node_modules, "node-llama-cpp", "llama", "llama.cpp.info.json")
    package = os.path.join(node_modules, "node-llama-cpp", "package.json")
    bundle = os.path.join(node_modules, "node-llama-cpp", "llama", "gitRelease.bundle")
    heads = subprocess.run(["git", "bundle", "list-heads", bundle], capture_output=True, text=True).stdout.split()
    with open(info) as f, open(package) as g:
        return {"node_llama_cpp": json.load(g)["version"], "llama_cpp": json.load(f),
                "source_snapshot": heads[0] if heads else None}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--node-modules", required=True, help="node_modules holding node-llama-cpp")
    parser.add_argument("--only", help="measure only the cases of this model")
    args = parser.parse_args()
    node_modules = os.path.abspath(args.node_modules)
    results = {"engine": bundled_release(node_modules), "cases": []}
    with tempfile.TemporaryDirectory() as workdir:
        views = {variant: variant_view(node_modules, variant, os.path.join(workdir, variant))
                 for variant in CPU_VARIANTS}
        for variant in os.listdir(workdir):
            os.makedirs(os.path.join(workdir, variant, "models"), exist_ok=True)
        for case in grid():
            if args.only and case["model"] != args.only:
                continue
            print("measuring", json.dumps(case), file=sys.stderr)
            results["cases"].append(measure(views[case["cpu"]], os.path.join(workdir, case["cpu"], "models"), case))
    with open(RESULTS, "w") as f:
        json.dump(results, f, indent=1, sort_keys=True)
        f.write("\n")
    print("wrote", RESULTS, len(results["cases"]), "cases", file=sys.stderr)


if __name__ == "__main__":
    main()
