#include "core/explain/explain.h"

#include "core/base/translatable.h"
#include "core/explain/report.h"
#include "core/memory/formularecord.h"
#include "core/memory/formulatext.h"

#include <algorithm>
#include <cstring>
#include <charconv>
#include <cmath>

namespace core {

namespace {

/// A value as it must be read back: whole numbers with thousands
/// separators, others in the shortest form that round-trips.
std::string number(double value)
{
    if (value == std::floor(value) && std::fabs(value) < 1.8e19)
        return (value < 0 ? "-" : "") + groupDigits(static_cast<std::uint64_t>(std::fabs(value)));
    char buffer[32];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
    return std::string(buffer, end);
}

/// A derivation's words in the reader's language (context "Derivation").
std::string word(Translator tr, const char *text) { return translate(tr, "Derivation", text); }

std::string withUnit(const std::string &text, const char *unit, Translator tr)
{
    return unit[0] == '\0' ? text : text + " " + word(tr, unit);
}

std::string product(const Product &p, bool values, bool labelled, Translator tr)
{
    std::string text;
    for (std::size_t i = 0; i < p.factors.size(); ++i) {
        const Factor &f = p.factors[i];
        if (i > 0 || f.divides)
            text += i == 0 ? "1 / " : (f.divides ? " / " : " x ");
        text += values ? withUnit(number(f.value), f.symbol->unit, tr) : f.symbol->name;
    }
    if (labelled && p.part)
        text += " [" + word(tr, p.part) + "]";
    return text;
}

/// The products of a sum, each named after its tensor where there are
/// several.
std::string sum(const TermFormula &f, bool values, Translator tr)
{
    std::string text;
    for (const Product &p : f.sum)
        text += (text.empty() ? "" : " + ") + product(p, values, f.sum.size() > 1, tr);
    return text.empty() ? "0" : text;
}

/// Every definition a term's formula refers to, depth first, each once.
void definitions(const TermFormula &f, std::vector<Definition> &out)
{
    for (const Definition &d : f.where) {
        const bool known =
            std::any_of(out.begin(), out.end(), [&d](const Definition &o) { return o.symbol == d.symbol; });
        if (!known) {
            out.push_back(d);
            definitions(*d.formula, out);
        }
    }
}

template <typename T>
void addOnce(std::vector<T> &list, T item)
{
    if (std::find(list.begin(), list.end(), item) == list.end())
        list.push_back(item);
}

/// Notes and sources by their text: the same literal used in two files need
/// not have one address (ASan gives each literal its own, with redzones).
void addOnce(std::vector<const char *> &list, const char *item)
{
    if (std::none_of(list.begin(), list.end(), [&](const char *s) { return std::strcmp(s, item) == 0; }))
        list.push_back(item);
}

std::string joined(const std::vector<const char *> &items, Translator tr)
{
    std::string text;
    for (const char *item : items)
        text += (text.empty() ? "" : "; ") + (tr ? word(tr, item) : std::string(item));
    return text;
}

/// A definition that only renames one symbol ("P_train = P").
bool isAlias(const TermFormula &f)
{
    return f.sum.size() == 1 && f.sum[0].factors.size() == 1 && !f.sum[0].part && !f.sum[0].factors[0].divides;
}

/// A term that is one symbol with a definition ("W = W_model") reads
/// better as that definition; its notes and sources come along.
TermFormula unwrapped(const TermFormula &how)
{
    if (!isAlias(how))
        return how;
    const Symbol *only = how.sum[0].factors[0].symbol;
    const auto definition =
        std::find_if(how.where.begin(), how.where.end(), [only](const Definition &d) { return d.symbol == only; });
    if (definition == how.where.end())
        return how;
    TermFormula inner = *definition->formula;
    for (const Definition &d : how.where)
        if (d.symbol != only)
            inner.where.push_back(d);
    inner.notes.insert(inner.notes.end(), how.notes.begin(), how.notes.end());
    inner.sources.insert(inner.sources.end(), how.sources.begin(), how.sources.end());
    return unwrapped(inner);
}

/// The derivation text of `term`, held by `outer` at the peak `when`
/// (nothing held where `outer` is null).
Derivation render(TermId term, const TermFormula *outer, const std::string &when, Bytes bytes, Translator tr)
{
    const TermFormula how = outer ? unwrapped(*outer) : TermFormula{};
    std::vector<Definition> where;
    definitions(how, where);
    std::vector<const Symbol *> symbols;
    std::vector<const char *> notes;
    std::vector<const char *> sources;
    const auto collect = [&](const TermFormula &f) {
        for (const Product &p : f.sum)
            for (const Factor &factor : p.factors)
                addOnce(symbols, factor.symbol);
        for (const char *n : f.notes)
            addOnce(notes, n);
        for (const char *s : f.sources)
            addOnce(sources, s);
    };
    collect(how);
    for (const Definition &d : where)
        collect(*d.formula);

    Derivation out;
    out.formula = std::string(text::termSymbol(term).name) + " = " + sum(how, false, tr);
    out.substituted = sum(how, true, tr);
    if (how.sum.empty())
        out.substituted += ": "
            + (notes.empty() ? word(tr, QT_TRANSLATE_NOOP("Derivation", "nothing of this term is held at this moment"))
                             : joined(notes, tr));
    for (const Definition &d : where) {
        out.formula += std::string("; ") + d.symbol->name + " = " + sum(*d.formula, false, tr);
        // An alias's value is already in the line it is used in.
        if (!isAlias(*d.formula))
            out.substituted += std::string("; ") + d.symbol->name + " = " + sum(*d.formula, true, tr) + " = "
                + withUnit(number(d.formula->evaluate()), d.symbol->unit, tr);
    }
    out.note = when + (how.sum.empty() || notes.empty() ? "" : "; " + joined(notes, tr));
    for (const Symbol *s : symbols)
        out.legend += (out.legend.empty() ? "" : "; ") + std::string(s->name) + ": " + word(tr, s->meaning)
            + (s->unit[0] ? " (" + word(tr, s->unit) + ")" : "");
    // Citations keep their authors' words.
    out.source = joined(sources, nullptr);
    out.result = formatBytes(bytes) + " (" + groupDigits(bytes.count()) + " B)";
    return out;
}

/// The estimate recorded again, and where its peak is.
struct Peak
{
    FormulaRecord record;
    Phase phase = Phase::Inference;
    std::string moment;
    std::string when; ///< "at the peak: backward, loss backward"

    Translator tr;

    Peak(const Scenario &s, const Estimate &e, Translator translator) : phase(e.peakPhase), tr(translator)
    {
        recordFormulas(s, e, record);
        for (const PhaseTotal &p : e.phases)
            if (p.phase == e.peakPhase)
                moment = p.moment;
        when = core::render(Message{"Derivation", QT_TRANSLATE_NOOP("Derivation", "at the peak: %1"),
                       {phaseName(phase, tr) + (moment.empty() ? "" : ", " + word(tr, moment.c_str()))}},
                      tr);
    }

    Derivation explain(const Estimate &e, TermId term) const
    {
        return render(term, record.find(phase, moment, term), when, e.term(term), tr);
    }
};

} // namespace

Derivation explainTerm(const Scenario &s, const Estimate &e, TermId term, Translator translator)
{
    return Peak(s, e, translator).explain(e, term);
}

std::array<Derivation, kTermCount> explainTerms(const Scenario &s, const Estimate &e, Translator translator)
{
    const Peak peak(s, e, translator);
    std::array<Derivation, kTermCount> all;
    for (TermId id : allTerms())
        all[static_cast<std::size_t>(id)] = peak.explain(e, id);
    return all;
}

} // namespace core
