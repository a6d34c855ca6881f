#include "core/memory/formula.h"

#include <algorithm>

namespace core {

double Product::evaluate() const
{
    double value = 1;
    for (const Factor &f : factors)
        value = f.divides ? value / f.value : value * f.value;
    return value;
}

double TermFormula::evaluate() const
{
    double value = 0;
    for (const Product &p : sum)
        value += p.evaluate();
    return value;
}

void Formula::recordProduct(const char *part)
{
    // Most products have a handful of factors, most sums a few products:
    // one block for each rather than a regrowth per operand.
    if (m_record->sum.empty())
        m_record->sum.reserve(8);
    m_record->sum.emplace_back(part).factors.reserve(6);
}

void Formula::recordFactor(const Symbol &symbol, double value, bool divides)
{
    m_record->sum.back().factors.push_back({&symbol, value, divides});
}

void Formula::define(const Symbol &symbol, const TermFormula *how)
{
    const auto known = std::find_if(m_record->where.begin(), m_record->where.end(),
                                    [&symbol](const Definition &d) { return d.symbol == &symbol; });
    if (how && known == m_record->where.end())
        pushOnto(m_record->where, Definition{&symbol, how});
}

Quantity recordedTogether(FormulaStore &store, std::initializer_list<Quantity> parts)
{
    Quantity sum;
    TermFormula *joined = store.create();
    // Each list sized once for all the parts.
    std::size_t sums = 0, wheres = 0, notes = 0, sources = 0;
    for (const Quantity &part : parts)
        if (part.how && part.bytes.count() != 0) {
            sums += part.how->sum.size();
            wheres += part.how->where.size();
            notes += part.how->notes.size();
            sources += part.how->sources.size();
        }
    joined->sum.reserve(sums);
    joined->where.reserve(wheres);
    joined->notes.reserve(notes);
    joined->sources.reserve(sources);
    for (const Quantity &part : parts) {
        sum.bytes += part.bytes;
        if (!part.how || part.bytes.count() == 0)
            continue;
        joined->sum.insert(joined->sum.end(), part.how->sum.begin(), part.how->sum.end());
        joined->where.insert(joined->where.end(), part.how->where.begin(), part.how->where.end());
        joined->notes.insert(joined->notes.end(), part.how->notes.begin(), part.how->notes.end());
        joined->sources.insert(joined->sources.end(), part.how->sources.begin(), part.how->sources.end());
    }
    sum.how = joined;
    return sum;
}

Quantity noted(FormulaStore *store, Quantity quantity, const char *note)
{
    if (!store || !quantity.how)
        return quantity;
    TermFormula *copy = store->copy(*quantity.how);
    pushOnto(copy->notes, note);
    return {quantity.bytes, copy};
}

} // namespace core
