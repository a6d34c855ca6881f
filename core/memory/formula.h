#pragma once

#include "core/base/units.h"

#include <deque>
#include <initializer_list>
#include <memory_resource>
#include <string_view>
#include <vector>

namespace core {

/// A named quantity in a formula: how it is written, its unit and what it
/// means ("L", "", "decoder layers on this rank"). Every symbol the engine
/// uses is a string literal in core/formulatext.h.
/// Views of string literals (their lengths counted when compiled, and
/// each ends with a '\0', as the translator wants).
struct Symbol
{
    std::string_view name;
    std::string_view unit;
    std::string_view meaning;
};

/// One operand as the engine used it: a multiplier, or a divisor.
struct Factor
{
    const Symbol *symbol;
    double value;
    bool divides;
};

/// Where a recorded formula's lists live: the store's arena (one block
/// for the whole record, not an allocation per operand), or the heap.
using FormulaAllocator = std::pmr::polymorphic_allocator<std::byte>;

/// Factors applied left to right; `part` names the tensor (or the case)
/// when the product is one of several in a sum.
struct Product
{
    using allocator_type = FormulaAllocator;

    const char *part = nullptr;
    std::pmr::vector<Factor> factors;

    Product() = default;
    Product(const Product &) = default;
    Product(Product &&) = default;
    Product &operator=(const Product &) = default;
    Product &operator=(Product &&) = default;
    Product(const char *part, const allocator_type &arena) : part(part), factors(arena) {}
    Product(const Product &other, const allocator_type &arena) : part(other.part), factors(other.factors, arena) {}
    Product(Product &&other, const allocator_type &arena) : part(other.part), factors(std::move(other.factors), arena)
    {
    }

    double evaluate() const;
};

struct TermFormula;

/// A symbol whose value has a formula of its own.
struct Definition
{
    const Symbol *symbol;
    const TermFormula *formula;
};

/// How one quantity was computed: a sum of products, the definitions of the
/// symbols it multiplies by that are sums of their own (bytes per element
/// of several tensors, the tensors a layer saves), notes on which case of
/// the rule applied, and where the rule comes from. Formulas live in a
/// FormulaStore; definitions point into it.
struct TermFormula
{
    using allocator_type = FormulaAllocator;

    std::pmr::vector<Product> sum;
    std::pmr::vector<Definition> where;
    std::pmr::vector<const char *> notes;
    std::pmr::vector<const char *> sources;

    TermFormula() = default;
    explicit TermFormula(const allocator_type &arena) : sum(arena), where(arena), notes(arena), sources(arena) {}
    TermFormula(const TermFormula &other, const allocator_type &arena)
        : sum(other.sum, arena), where(other.where, arena), notes(other.notes, arena), sources(other.sources, arena)
    {
    }

    double evaluate() const;
};

/// A number and, when the estimate is explained, how it was computed.
struct Derived
{
    double value = 0;
    const TermFormula *how = nullptr;
};

/// A byte count and, when the estimate is explained, how it was computed.
struct Quantity
{
    Bytes bytes;
    const TermFormula *how = nullptr;
};

/// Appends to a record's list, with room for a few at the first: a list
/// grown one by one copies itself at every doubling.
template <typename T>
void pushOnto(std::pmr::vector<T> &list, T item)
{
    if (list.empty())
        list.reserve(4);
    list.push_back(item);
}

/// Owns the formulas of one explained estimate; their addresses are stable.
/// Everything they hold comes from one arena, freed with the store: a
/// recording makes a few thousand small lists, and allocating each from the
/// heap cost more than the estimate itself.
class FormulaStore
{
public:
    FormulaStore() = default;
    FormulaStore(const FormulaStore &) = delete;
    FormulaStore &operator=(const FormulaStore &) = delete;

    TermFormula *create() { return &m_formulas.emplace_back(); }
    /// A copy of `formula` that this store owns.
    TermFormula *copy(const TermFormula &formula) { return &m_formulas.emplace_back(formula); }

private:
    std::pmr::monotonic_buffer_resource m_arena{32 * 1024};
    std::pmr::deque<TermFormula> m_formulas{&m_arena};
};

/// A new formula in `store`, or none on the hot path (no store).
inline TermFormula *newFormula(FormulaStore *store) { return store ? store->create() : nullptr; }

/// Computes a sum of products as it is written, left to right. Given a
/// record it also keeps every operand with its symbol, so the explanation
/// is the computation itself; without one it is plain arithmetic, cheap
/// enough for the estimate's hot path.
class Formula
{
public:
    /// Records into a new formula of `store`; without one, only computes.
    explicit Formula(FormulaStore *store = nullptr) : m_record(newFormula(store)) {}

    /// Starts the next product of the sum; `part` names it.
    Formula &product(const char *part = nullptr)
    {
        m_closed += m_open;
        m_open = 1;
        if (m_record)
            recordProduct(part);
        return *this;
    }
    Formula &times(const Symbol &symbol, double value)
    {
        m_open *= value;
        if (m_record)
            recordFactor(symbol, value, false);
        return *this;
    }
    Formula &over(const Symbol &symbol, double value)
    {
        m_open /= value;
        if (m_record)
            recordFactor(symbol, value, true);
        return *this;
    }
    /// Multiplies by a value that has a formula of its own: the formula
    /// becomes the definition of `symbol`.
    Formula &times(const Symbol &symbol, const Derived &value)
    {
        if (m_record)
            define(symbol, value.how);
        return times(symbol, value.value);
    }
    /// A share or a split that may be whole (one rank, no sharding): a
    /// factor of 1 changes nothing, so the formula does not show it.
    Formula &timesUnlessOne(const Symbol &symbol, const Derived &value)
    {
        return value.value == 1.0 ? *this : times(symbol, value);
    }
    Formula &timesUnlessOne(const Symbol &symbol, double value) { return value == 1.0 ? *this : times(symbol, value); }
    Formula &overUnlessOne(const Symbol &symbol, double value) { return value == 1.0 ? *this : over(symbol, value); }
    /// Which case of the rule applied ("gradient accumulation keeps ...").
    Formula &note(const char *text)
    {
        if (m_record)
            pushOnto(m_record->notes, text);
        return *this;
    }
    Formula &cite(const char *source)
    {
        if (m_record)
            pushOnto(m_record->sources, source);
        return *this;
    }

    double value() const { return m_closed + m_open; }
    Derived derived() const { return {value(), m_record}; }
    Quantity bytes() const { return {Bytes::fromDouble(value()), m_record}; }

private:
    // The recording side, out of line: the hot path only tests m_record.
    void recordProduct(const char *part);
    void recordFactor(const Symbol &symbol, double value, bool divides);
    void define(const Symbol &symbol, const TermFormula *how);

    TermFormula *m_record;
    // The products before the open one, and the open one (0 before the
    // first, so that an empty sum is 0 and 0 + x is x exactly).
    double m_closed = 0;
    double m_open = 0;
};

/// The larger (or smaller) of two quantities, with the formula of the one
/// taken: the engine's max() and min() record the case that applied.
inline Quantity larger(Quantity a, Quantity b) { return a.bytes >= b.bytes ? a : b; }
inline Quantity smaller(Quantity a, Quantity b) { return a.bytes <= b.bytes ? a : b; }

/// Adds to `f` the larger of two alternative sums, `first` or `second`
/// (callables that add their products to a Formula), and notes which it was:
/// a max() the explanation shows as the case that applied.
template <typename First, typename Second>
void addLarger(Formula &f, const First &first, const char *whyFirst, const Second &second, const char *whySecond)
{
    Formula a;
    first(a);
    Formula b;
    second(b);
    if (a.value() >= b.value())
        first(f.note(whyFirst));
    else
        second(f.note(whySecond));
}

/// The recording side of `together`.
Quantity recordedTogether(FormulaStore &store, std::initializer_list<Quantity> parts);

/// Tensors alive together: their bytes added, their formulas side by side
/// (parts of zero bytes left out). No formula without a store.
inline Quantity together(FormulaStore *store, std::initializer_list<Quantity> parts)
{
    if (store)
        return recordedTogether(*store, parts);
    Quantity sum;
    for (const Quantity &part : parts)
        sum.bytes += part.bytes;
    return sum;
}

/// `quantity` with one more note on the case that applied (a copy of its
/// formula: the same figure can mean another thing at another moment).
Quantity noted(FormulaStore *store, Quantity quantity, const char *note);

/// Zero bytes, and why (a term the scenario does not use).
inline Quantity none(FormulaStore *store, const char *why) { return Formula(store).note(why).bytes(); }

} // namespace core
