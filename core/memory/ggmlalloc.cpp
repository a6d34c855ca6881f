#include "core/memory/ggmlalloc.h"

#include <algorithm>
#include <limits>

namespace core::ggml {

void ComputeGraph::reserve(std::size_t tensors)
{
    m_tensors.reserve(tensors);
    m_sources.reserve(tensors * 2);
    m_nodes.reserve(tensors);
    m_visited.reserve(tensors);
}

int ComputeGraph::add(GraphTensor t, std::initializer_list<int> sources)
{
    t.firstSource = static_cast<int>(m_sources.size());
    t.sourceCount = static_cast<int>(sources.size());
    m_sources.insert(m_sources.end(), sources.begin(), sources.end());
    m_tensors.push_back(t);
    return static_cast<int>(m_tensors.size()) - 1;
}

int ComputeGraph::leaf(std::uint64_t bytes, bool input)
{
    GraphTensor t;
    t.bytes = bytes;
    t.shape = bytes;
    t.input = input;
    return add(t, {});
}

int ComputeGraph::weight()
{
    GraphTensor t;
    t.external = true;
    return add(t, {});
}

int ComputeGraph::op(std::uint64_t bytes, std::initializer_list<int> sources, bool inPlace, std::uint64_t shape)
{
    GraphTensor t;
    t.bytes = bytes;
    t.shape = shape != 0 ? shape : bytes;
    t.hasOp = true;
    t.inPlace = inPlace;
    return add(t, sources);
}

int ComputeGraph::view(int source)
{
    const GraphTensor &s = tensor(source);
    GraphTensor t;
    t.bytes = s.bytes;
    t.shape = s.shape;
    t.viewOf = s.viewOf >= 0 ? s.viewOf : source;
    t.external = tensor(t.viewOf).external;
    t.hasOp = true;
    return add(t, {source});
}

int ComputeGraph::setRows(int destination, std::initializer_list<int> sources)
{
    GraphTensor t;
    t.viewOf = destination;
    t.external = true;
    t.hasOp = true;
    const int index = add(t, {destination});
    m_sources.insert(m_sources.end(), sources.begin(), sources.end());
    m_tensors.back().sourceCount += static_cast<int>(sources.size());
    return index;
}

void ComputeGraph::expand(int tensor)
{
    // ggml_visit_parents_graph, without recursion: a tensor joins the graph
    // once its sources have, left to right.
    m_visited.resize(m_tensors.size(), false);
    if (m_visited[static_cast<std::size_t>(tensor)])
        return;
    m_visited[static_cast<std::size_t>(tensor)] = true;
    m_stack.assign(1, {tensor, 0});
    while (!m_stack.empty()) {
        auto &[t, next] = m_stack.back();
        const auto [begin, end] = sources(t);
        if (begin + next < end) {
            const int source = begin[next++];
            if (!m_visited[static_cast<std::size_t>(source)]) {
                m_visited[static_cast<std::size_t>(source)] = true;
                m_stack.emplace_back(source, 0);
            }
            continue;
        }
        (this->tensor(t).hasOp ? m_nodes : m_leafs).push_back(t);
        m_stack.pop_back();
    }
}

namespace {

/// ggml_dyn_tallocr: free blocks sorted by offset, the last one open-ended.
class BestFit
{
public:
    explicit BestFit(std::uint64_t alignment) : m_alignment(alignment) {}

    std::uint64_t allocate(std::uint64_t size)
    {
        size = aligned(size);
        // The best fitting block besides the last; else the last.
        std::size_t best = m_free.size() - 1;
        std::uint64_t bestSize = std::numeric_limits<std::uint64_t>::max();
        for (std::size_t i = 0; i + 1 < m_free.size(); ++i)
            if (m_free[i].size >= size && m_free[i].size <= bestSize) {
                best = i;
                bestSize = m_free[i].size;
            }
        Block &block = m_free[best];
        const std::uint64_t offset = block.offset;
        block.offset += size;
        block.size -= size;
        if (block.size == 0)
            m_free.erase(m_free.begin() + static_cast<std::ptrdiff_t>(best));
        m_highWater = std::max(m_highWater, offset + size);
        return offset;
    }

    void release(std::uint64_t offset, std::uint64_t size)
    {
        size = aligned(size);
        for (std::size_t i = 0; i < m_free.size(); ++i) {
            Block &block = m_free[i];
            if (block.offset + block.size == offset) {
                block.size += size;
                if (i + 1 < m_free.size() && block.offset + block.size == m_free[i + 1].offset) {
                    block.size += m_free[i + 1].size;
                    m_free.erase(m_free.begin() + static_cast<std::ptrdiff_t>(i + 1));
                }
                return;
            }
            if (offset + size == block.offset) {
                block.offset = offset;
                block.size += size;
                if (i > 0 && m_free[i - 1].offset + m_free[i - 1].size == block.offset) {
                    m_free[i - 1].size += block.size;
                    m_free.erase(m_free.begin() + static_cast<std::ptrdiff_t>(i));
                }
                return;
            }
        }
        const auto at = std::find_if(m_free.begin(), m_free.end(), [offset](const Block &b) { return b.offset >= offset; });
        m_free.insert(at, Block{offset, size});
    }

    std::uint64_t highWater() const { return m_highWater; }

private:
    struct Block
    {
        std::uint64_t offset;
        std::uint64_t size;
    };
    std::uint64_t aligned(std::uint64_t size) const { return (size + m_alignment - 1) / m_alignment * m_alignment; }

    std::uint64_t m_alignment;
    std::vector<Block> m_free{{0, std::numeric_limits<std::uint64_t>::max() / 2}};
    std::uint64_t m_highWater = 0;
};

/// A tensor's sources, for range-for.
struct Sources
{
    const int *first;
    const int *last;
    const int *begin() const { return first; }
    const int *end() const { return last; }
};
Sources sourcesOf(const ComputeGraph &g, int index)
{
    const auto [first, last] = g.sources(index);
    return {first, last};
}

struct State
{
    int children = 0;
    int views = 0;
    bool allocated = false; ///< ggml_gallocr_is_own
    std::uint64_t offset = 0;
    std::uint64_t size = 0;
};

} // namespace

std::uint64_t computeBufferBytes(const ComputeGraph &graph, std::uint64_t alignment)
{
    const std::vector<GraphTensor> &tensors = graph.tensors();
    std::vector<State> state(tensors.size());
    BestFit memory(alignment);
    const auto allocate = [&](int index) {
        const GraphTensor &t = tensors[static_cast<std::size_t>(index)];
        State &s = state[static_cast<std::size_t>(index)];
        if (t.external || s.allocated || t.viewOf >= 0)
            return;
        s.allocated = true;
        // In place: a parent this allocator owns (never a view), read last
        // here, of the same layout.
        if (t.inPlace)
            for (const int parent : sourcesOf(graph, index)) {
                State &p = state[static_cast<std::size_t>(parent)];
                if (!p.allocated || tensors[static_cast<std::size_t>(parent)].shape != t.shape || p.children != 1
                    || p.views != 0)
                    continue;
                s.offset = p.offset;
                s.size = p.size;
                p.allocated = false;
                return;
            }
        s.offset = memory.allocate(t.bytes);
        s.size = t.bytes;
    };
    const auto release = [&](int index) {
        State &s = state[static_cast<std::size_t>(index)];
        memory.release(s.offset, s.size);
        s.allocated = false;
    };
    for (const int leaf : graph.leafs())
        allocate(leaf);
    for (const int node : graph.nodes()) {
        const GraphTensor &t = tensors[static_cast<std::size_t>(node)];
        if (t.viewOf >= 0)
            ++state[static_cast<std::size_t>(t.viewOf)].views;
        for (const int source : sourcesOf(graph, node)) {
            ++state[static_cast<std::size_t>(source)].children;
            if (tensors[static_cast<std::size_t>(source)].input)
                allocate(source);
        }
    }
    for (const int node : graph.nodes()) {
        for (const int parent : sourcesOf(graph, node))
            allocate(parent);
        allocate(node);
        for (const int parent : sourcesOf(graph, node)) {
            State &p = state[static_cast<std::size_t>(parent)];
            if (--p.children != 0 || p.views != 0)
                continue;
            const int base = tensors[static_cast<std::size_t>(parent)].viewOf;
            if (base >= 0) {
                State &b = state[static_cast<std::size_t>(base)];
                if (--b.views == 0 && b.children == 0 && b.allocated)
                    release(base);
            } else if (p.allocated) {
                release(parent);
            }
        }
    }
    return memory.highWater();
}

} // namespace core::ggml
