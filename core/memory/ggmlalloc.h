#pragma once

// ggml's graph allocator, replayed: the compute buffer ggml-alloc reserves
// for a graph is the high-water mark of a best-fit allocator walking it in
// order (ggml/src/ggml-alloc.c ggml_gallocr_alloc_graph_impl and
// ggml_dyn_tallocr, llama.cpp 0.4.0). The graphs themselves are built by
// their engines (llamacppgraph.h).

#include <cstdint>
#include <initializer_list>
#include <utility>
#include <vector>

namespace core::ggml {

/// One tensor of a graph as the allocator sees it.
struct GraphTensor
{
    std::uint64_t bytes = 0;
    std::uint64_t shape = 0;       ///< same value, same ne and nb (ggml_are_same_layout)
    int firstSource = 0;           ///< its sources: ComputeGraph::sources
    int sourceCount = 0;
    int viewOf = -1;               ///< the tensor whose memory a view shares
    bool hasOp = false;            ///< false: a leaf (an input, a weight)
    bool external = false;         ///< memory outside the compute buffer: weights, the KV cache
    bool input = false;            ///< ggml_set_input: allocated before every node
    bool inPlace = false;          ///< an op ggml_op_can_inplace lists
};

/// A graph in the making: tensors as the engine creates them, then the
/// order ggml_build_forward_expand gives them.
class ComputeGraph
{
public:
    /// Room for about `tensors` tensors (a graph is rebuilt per estimate).
    void reserve(std::size_t tensors);
    int leaf(std::uint64_t bytes, bool input);
    int weight();
    int op(std::uint64_t bytes, std::initializer_list<int> sources, bool inPlace = false, std::uint64_t shape = 0);
    /// A view (VIEW, RESHAPE, PERMUTE, TRANSPOSE) of `source`'s memory.
    int view(int source);
    /// ggml_set_rows: a view of `destination` (the KV cache) that reads `sources`.
    int setRows(int destination, std::initializer_list<int> sources);
    /// ggml_build_forward_expand: sources first, left to right, each once.
    void expand(int tensor);

    const std::vector<GraphTensor> &tensors() const { return m_tensors; }
    const GraphTensor &tensor(int index) const { return m_tensors[static_cast<std::size_t>(index)]; }
    /// The sources of tensor `index`, as [begin, end).
    std::pair<const int *, const int *> sources(int index) const
    {
        const GraphTensor &t = tensor(index);
        const int *first = m_sources.data() + t.firstSource;
        return {first, first + t.sourceCount};
    }
    const std::vector<int> &nodes() const { return m_nodes; }
    const std::vector<int> &leafs() const { return m_leafs; }

private:
    int add(GraphTensor t, std::initializer_list<int> sources);

    std::vector<GraphTensor> m_tensors;
    std::vector<int> m_sources;
    std::vector<int> m_nodes;
    std::vector<int> m_leafs;
    std::vector<bool> m_visited;
    std::vector<std::pair<int, int>> m_stack; ///< expand's path: tensor, next source
};

/// The bytes ggml-alloc reserves for `graph` in one buffer of `alignment`.
std::uint64_t computeBufferBytes(const ComputeGraph &graph, std::uint64_t alignment);

} // namespace core::ggml
