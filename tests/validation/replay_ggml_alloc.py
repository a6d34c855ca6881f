#!/usr/bin/env python3
"""Replay llama.cpp's graph allocator over its llama graph, for the CPU
compute buffer the planner does not model exactly yet (issue 27).

ggml-alloc (ggml/src/ggml-alloc.c at llama.cpp 0.4.0) sizes the compute
buffer as the high-water mark of a best-fit allocator that walks the graph in
order: graph inputs first (leafs, never freed while a node still reads them,
and the unused vector-embeddings input of ggml_build_forward_select never
freed at all), each node's output allocated after its parents, a parent's
memory reused in place by the ops ggml_op_can_inplace lists when the
allocator owns it (so never through a view: RoPE after a reshape gets
memory of its own), views sharing their source, every tensor freed when its
last reader has run, free blocks merged with their neighbours. This script builds the llama / qwen2 / qwen3
graph (src/models/llama.cpp, llama-graph.cpp build_attn, build_ffn,
llama-kv-cache.cpp cpy_k/cpy_v) as ggml_build_forward_expand orders it and
replays that allocator, then compares with the measured cases of
llamacpp-cpu-results.json.

Run: tests/validation/replay_ggml_alloc.py (it prints each case and how
many agree to the printed four decimals).
"""

import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))

ALIGN = 32  # TENSOR_ALIGNMENT, the CPU buffer type's alignment
# ggml_op_can_inplace (ggml-alloc.c): the ops that may take a parent's memory.
IN_PLACE = {"ADD", "MUL", "SCALE", "UNARY", "ROPE", "RMS_NORM", "SOFT_MAX", "ADD1", "SUB", "DIV", "SQR", "SQRT",
            "LOG", "CLAMP", "FILL", "DIAG_MASK_INF", "DIAG_MASK_ZERO", "ADD_ID"}
F32 = 4


class Tensor:
    """A graph tensor as ggml-alloc sees it: its bytes, op, sources, the
    tensor it is a view of, and whether its memory lies outside the compute
    buffer (weights, the KV cache)."""
    count = 0

    def __init__(self, name, nbytes, op="NONE", sources=(), view_of=None, external=False, graph_input=False,
                 layout=None):
        self.name, self.nbytes, self.op, self.sources = name, nbytes, op, list(sources)
        self.view_of, self.external, self.graph_input = view_of, external, graph_input
        self.layout = layout if layout is not None else (nbytes,)
        self.view_offset = 0
        Tensor.count += 1
        self.key = Tensor.count

    def is_view(self):
        return self.view_of is not None


def weight(name):
    return Tensor(name, 0, external=True)


def view(source, nbytes, op="VIEW", layout=None):
    """A view (VIEW, RESHAPE, PERMUTE, TRANSPOSE) of `source`'s memory."""
    base = source.view_of if source.is_view() else source
    result = Tensor(op.lower(), nbytes, op, [source], view_of=base, external=base.external, layout=layout)
    result.view_offset = source.view_offset if source.is_view() else 0
    return result


class Graph:
    """ggml_build_forward_expand: sources first, left to right; tensors
    without an op are leafs."""

    def __init__(self):
        self.nodes, self.leafs, self.visited = [], [], set()

    def expand(self, tensor):
        if tensor.key in self.visited:
            return
        self.visited.add(tensor.key)
        for source in tensor.sources:
            self.expand(source)
        (self.leafs if tensor.op == "NONE" else self.nodes).append(tensor)


class BestFit:
    """ggml_dyn_tallocr: best fit among the free blocks but the last, else
    the last (which grows the buffer); freed blocks merge with neighbours."""

    def __init__(self):
        self.free = [[0, 1 << 62]]
        self.high_water = 0

    def allocate(self, size):
        size = (size + ALIGN - 1) // ALIGN * ALIGN
        best = len(self.free) - 1
        best_size = None
        for i, (_, block_size) in enumerate(self.free[:-1]):
            if block_size >= size and (best_size is None or block_size <= best_size):
                best, best_size = i, block_size
        block = self.free[best]
        offset = block[0]
        block[0] += size
        block[1] -= size
        if block[1] == 0:
            self.free.pop(best)
        self.high_water = max(self.high_water, offset + size)
        return offset

    def release(self, offset, size):
        size = (size + ALIGN - 1) // ALIGN * ALIGN
        for i, block in enumerate(self.free):
            if block[0] + block[1] == offset:
                block[1] += size
                if i + 1 < len(self.free) and block[0] + block[1] == self.free[i + 1][0]:
                    block[1] += self.free.pop(i + 1)[1]
                return
            if offset + size == block[0]:
                block[0] = offset
                block[1] += size
                if i > 0 and self.free[i - 1][0] + self.free[i - 1][1] == block[0]:
                    self.free[i - 1][1] += self.free.pop(i)[1]
                return
        i = 0
        while i < len(self.free) and self.free[i][0] < offset:
            i += 1
        self.free.insert(i, [offset, size])


def compute_buffer(graph):
    """ggml_gallocr_alloc_graph_impl over `graph`: the buffer's high-water mark."""
    memory = BestFit()
    state = {}

    def of(tensor):
        return state.setdefault(tensor.key, {"children": 0, "views": 0, "allocated": False, "offset": 0, "size": 0})

    def allocate(tensor):
        s = of(tensor)
        if tensor.external or s["allocated"] or tensor.is_view():
            return
        s["allocated"] = True
        if tensor.op in IN_PLACE:
            # Only a parent the allocator owns (ggml_gallocr_is_own: its
            # hash entry is allocated), so never a view, with this node its
            # last reader and the same layout.
            for parent in tensor.sources:
                p = of(parent)
                if not p["allocated"] or parent.layout != tensor.layout or p["children"] != 1 or p["views"] != 0:
                    continue
                s["offset"], s["size"] = p["offset"], p["size"]
                p["allocated"] = False
                return
        s["offset"], s["size"] = memory.allocate(tensor.nbytes), tensor.nbytes

    def release(tensor):
        s = of(tensor)
        memory.release(s["offset"], s["size"])
        s["allocated"] = False

    for leaf in graph.leafs:
        allocate(leaf)
    for node in graph.nodes:
        if node.is_view():
            of(node.view_of)["views"] += 1
        for source in node.sources:
            of(source)["children"] += 1
            if source.graph_input:
                allocate(source)
    for node in graph.nodes:
        for parent in node.sources:
            allocate(parent)
        allocate(node)
        for parent in node.sources:
            p = of(parent)
            p["children"] -= 1
            if p["children"] or p["views"]:
                continue
            if parent.is_view():
                base = of(parent.view_of)
                base["views"] -= 1
                if base["views"] == 0 and base["children"] == 0 and base["allocated"]:
                    release(parent.view_of)
            elif p["allocated"]:
                release(parent)
    return memory.high_water


def hadamard_size(head_dim, smallest):
    """llama_kv_cache::build_input_k_rot / _v_rot: the rotation's order, the
    largest power of two from 64 dividing the head (64 for V)."""
    n = 64
    if not smallest:
        while head_dim % (n * 2) == 0:
            n *= 2
    return n


def hadamard(tensor, rotation):
    """llama_mul_mat_hadamard (llama-impl.h): a contiguous tensor reshaped,
    multiplied by the rotation (a new tensor of its size), reshaped back."""
    rows = view(tensor, tensor.nbytes, "RESHAPE")
    rotated = Tensor("hadamard", tensor.nbytes, "MUL_MAT", [rotation, rows])
    return view(rotated, tensor.nbytes, "RESHAPE", layout=tensor.layout)


def llama_graph(m, cells, ubatch, flash, quantized_k=False, quantized_v=False):
    """The llama / qwen2 / qwen3 graph of one micro-batch of `ubatch` tokens
    over `cells` KV cells per stream, every token an output (graph_reserve).
    A quantised K or V cache rotates what it stores by a Hadamard matrix
    (llama_kv_cache attn_rot_k / attn_rot_v, build_attn), and V's rotation
    is undone on the attention's output."""
    h, heads, kv_heads, d, ff, vocab, layers = (m["hidden"], m["heads"], m["kv_heads"], m["head_dim"], m["ff"],
                                                m["vocab"], m["layers"])
    g = Graph()
    tokens = Tensor("inp_tokens", 4 * ubatch, graph_input=True)
    vector_input = Tensor("inp_embd", F32 * h * ubatch, graph_input=True)  # ggml_build_forward_select's other input
    rows = Tensor("get_rows", F32 * h * ubatch, "GET_ROWS", [weight("token_embd"), tokens])
    g.expand(rows)
    g.expand(vector_input)
    positions = Tensor("inp_pos", 4 * ubatch, graph_input=True)
    k_idxs = Tensor("k_idxs", 8 * ubatch, graph_input=True)
    # Without flash attention V is cached transposed: one index per value.
    v_idxs = Tensor("v_idxs", 8 * ubatch * (1 if flash else kv_heads * d), graph_input=True)
    mask = Tensor("kq_mask", (2 if flash else F32) * cells * ubatch, graph_input=True)
    out_ids = Tensor("out_ids", 4 * ubatch, graph_input=True)
    rotate_k = quantized_k and d % 64 == 0
    rotate_v = quantized_v and d % 64 == 0
    k_rot = Tensor("attn_inp_k_rot", F32 * hadamard_size(d, False) ** 2, graph_input=True) if rotate_k else None
    v_rot = Tensor("attn_inp_v_rot", F32 * hadamard_size(d, True) ** 2, graph_input=True) if rotate_v else None
    layer_in = rows
    for il in range(layers):
        residual = layer_in
        cur = Tensor("attn_norm", F32 * h * ubatch, "RMS_NORM", [layer_in])
        cur = Tensor("attn_norm_w", F32 * h * ubatch, "MUL", [cur, weight("attn_norm")])
        q = Tensor("Qcur", F32 * heads * d * ubatch, "MUL_MAT", [weight("wq"), cur])
        k = Tensor("Kcur", F32 * kv_heads * d * ubatch, "MUL_MAT", [weight("wk"), cur])
        v = Tensor("Vcur", F32 * kv_heads * d * ubatch, "MUL_MAT", [weight("wv"), cur])
        if m.get("qkv_bias"):
            q = Tensor("Qbias", q.nbytes, "ADD", [q, weight("bq")])
            k = Tensor("Kbias", k.nbytes, "ADD", [k, weight("bk")])
            v = Tensor("Vbias", v.nbytes, "ADD", [v, weight("bv")])
        q = view(q, q.nbytes, "RESHAPE", layout=(q.nbytes, "3d"))
        k = view(k, k.nbytes, "RESHAPE", layout=(k.nbytes, "3d"))
        v = view(v, v.nbytes, "RESHAPE", layout=(v.nbytes, "3d"))
        if m.get("qk_norm"):
            q = Tensor("q_norm", q.nbytes, "RMS_NORM", [q], layout=q.layout)
            q = Tensor("q_norm_w", q.nbytes, "MUL", [q, weight("q_norm")], layout=q.layout)
            k = Tensor("k_norm", k.nbytes, "RMS_NORM", [k], layout=k.layout)
            k = Tensor("k_norm_w", k.nbytes, "MUL", [k, weight("k_norm")], layout=k.layout)
        q = Tensor("Qrope", q.nbytes, "ROPE", [q, positions], layout=q.layout)
        k = Tensor("Krope", k.nbytes, "ROPE", [k, positions], layout=k.layout)
        if rotate_k:
            q, k = hadamard(q, k_rot), hadamard(k, k_rot)
        if rotate_v:
            v = hadamard(v, v_rot)
        g.expand(q)
        g.expand(v)
        g.expand(k)
        k_cache, v_cache = weight("k_cache"), weight("v_cache")
        g.expand(Tensor("set_rows_k", 0, "SET_ROWS", [k_cache, view(k, k.nbytes), k_idxs], view_of=k_cache,
                        external=True))
        v_rows = view(v, v.nbytes) if flash else view(view(v, v.nbytes, "RESHAPE"), v.nbytes, "RESHAPE")
        g.expand(Tensor("set_rows_v", 0, "SET_ROWS", [v_cache, v_rows, v_idxs], view_of=v_cache, external=True))
        q_heads = view(view(q, q.nbytes), q.nbytes, "PERMUTE")
        k_heads, v_heads = view(view(k_cache, 0), 0, "PERMUTE"), view(view(v_cache, 0), 0, "PERMUTE")
        if flash:
            attention = Tensor("flash_attn", F32 * heads * d * ubatch, "FLASH_ATTN_EXT", [q_heads, k_heads, v_heads, mask])
            cur = view(attention, attention.nbytes, "RESHAPE")
        else:
            scores = Tensor("kq", F32 * cells * heads * ubatch, "MUL_MAT", [k_heads, q_heads])
            scores = Tensor("kq_soft_max", scores.nbytes, "SOFT_MAX", [scores, mask])
            kqv = Tensor("kqv", F32 * d * heads * ubatch, "MUL_MAT", [v_heads, scores])
            cur = Tensor("kqv_cont", kqv.nbytes, "CONT", [view(kqv, kqv.nbytes, "PERMUTE")])
        g.expand(cur)
        if rotate_v:
            cur = hadamard(cur, v_rot)
        cur = Tensor("wo", F32 * h * ubatch, "MUL_MAT", [weight("wo"), cur])
        if il == layers - 1:
            cur = Tensor("out_rows", F32 * h * ubatch, "GET_ROWS", [cur, out_ids])
            residual = Tensor("out_rows_residual", F32 * h * ubatch, "GET_ROWS", [residual, out_ids])
        ffn_in = Tensor("ffn_inp", F32 * h * ubatch, "ADD", [cur, residual])
        cur = Tensor("ffn_norm", F32 * h * ubatch, "RMS_NORM", [ffn_in])
        cur = Tensor("ffn_norm_w", F32 * h * ubatch, "MUL", [cur, weight("ffn_norm")])
        up = Tensor("ffn_up", F32 * ff * ubatch, "MUL_MAT", [weight("up"), cur])
        gate = Tensor("ffn_gate", F32 * ff * ubatch, "MUL_MAT", [weight("gate"), cur])
        product = Tensor("ffn_swiglu", F32 * ff * ubatch, "GLU", [gate, up])
        cur = Tensor("ffn_down", F32 * h * ubatch, "MUL_MAT", [weight("down"), product])
        layer_in = Tensor("ffn_out", F32 * h * ubatch, "ADD", [cur, ffn_in])
    cur = Tensor("result_norm", F32 * h * ubatch, "RMS_NORM", [layer_in])
    cur = Tensor("result_norm_w", F32 * h * ubatch, "MUL", [cur, weight("output_norm")])
    g.expand(Tensor("result_output", F32 * vocab * ubatch, "MUL_MAT", [weight("output"), cur]))
    return g


def main():
    results = json.load(open(os.path.join(HERE, "llamacpp-cpu-results.json")))
    exact = 0
    cases = 0
    for case in results["cases"]:
        a = case["architecture"]
        if a["arch"] not in ("llama", "qwen2", "qwen3"):
            continue
        model = dict(a, head_dim=a.get("head_dim") or a["hidden"] // a["heads"])
        context = case["context"]
        flash = context["flash_attn"] == "enabled"
        settings = case["settings"]
        graph = llama_graph(model, context["n_ctx_seq"], context["n_ubatch"], flash,
                            settings["typeK"] != "F16", settings["typeV"] != "F16")
        replayed = compute_buffer(graph) / 1048576
        measured = sum(case["buffers_mib"]["compute_exact"].values())
        cases += 1
        exact += abs(replayed - measured) < 0.00005
        print("%-10s %-6s K %-4s V %-4s n_ctx_seq %5d n_ubatch %4d seqs %d flash %d: replayed %9.4f MiB, measured %9.4f"
              % (case["model"], case["weights"], case["settings"]["typeK"], case["settings"]["typeV"],
                 context["n_ctx_seq"], context["n_ubatch"], context["n_seq_max"], flash, replayed, measured))
    print("%d of %d dense cases exact to the printed four decimals" % (exact, cases))


if __name__ == "__main__":
    main()
