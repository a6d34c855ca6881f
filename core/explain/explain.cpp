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

/// Text written piece by piece into room that only grows: a derivation is a
/// few thousand small pieces (symbols, numbers, units, separators), and
/// each is an inline copy here where a string's append is a call.
class Text
{
public:
    Text() : m_room(8192) {}

    void clear() { m_size = 0; }
    Text &operator+=(std::string_view piece)
    {
        if (m_size + piece.size() > m_room.size())
            m_room.resize(2 * (m_size + piece.size()));
        std::memcpy(m_room.data() + m_size, piece.data(), piece.size());
        m_size += piece.size();
        return *this;
    }
    Text &operator+=(char c) { return *this += std::string_view(&c, 1); }
    std::size_t size() const { return m_size; }
    std::string str() const { return std::string(m_room.data(), m_size); }

private:
    std::vector<char> m_room;
    std::size_t m_size = 0;
};

/// A value as it must be read back: whole numbers with thousands
/// separators, others in the shortest form that round-trips.
void appendNumber(Text &out, double value)
{
    if (value == std::floor(value) && std::fabs(value) < 1.8e19) {
        if (value < 0)
            out += '-';
        out += groupedDigits(static_cast<std::uint64_t>(std::fabs(value))).view();
        return;
    }
    char buffer[32];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
    out += std::string_view(buffer, static_cast<std::size_t>(end - buffer));
}

/// A derivation's words in the reader's language (context "Derivation").
/// `text` views a string literal, which ends with the '\0' the translator
/// reads to.
void appendWord(Text &out, Translator translator, std::string_view text)
{
    if (translator)
        out += translator("Derivation", text.data());
    else
        out += text;
}

/// A product's part: a tensor or a case (context "Derivation"), or a term
/// where a formula sums terms (the allocator reserve's parts, context
/// "Terms", as the breakdown names them).
void appendPart(Text &out, Translator translator, const char *part)
{
    if (!translator) {
        out += part;
        return;
    }
    const std::string shown = translator("Derivation", part);
    out += shown != part ? shown : translator("Terms", part);
}

void appendWithUnit(Text &out, double value, std::string_view unit, Translator tr)
{
    appendNumber(out, value);
    if (!unit.empty()) {
        out += ' ';
        appendWord(out, tr, unit);
    }
}

void appendProduct(Text &out, const Product &p, bool values, bool labelled, Translator tr)
{
    for (std::size_t i = 0; i < p.factors.size(); ++i) {
        const Factor &f = p.factors[i];
        if (i > 0 || f.divides)
            out += i == 0 ? "1 / " : (f.divides ? " / " : " x ");
        if (values)
            appendWithUnit(out, f.value, f.symbol->unit, tr);
        else
            out += f.symbol->name;
    }
    if (labelled && p.part) {
        out += " [";
        appendPart(out, tr, p.part);
        out += ']';
    }
}

/// The products of a sum, each named after its tensor where there are
/// several.
void appendSum(Text &out, const std::pmr::vector<Product> &sum, bool values, Translator tr)
{
    if (sum.empty())
        out += '0';
    for (const Product &p : sum) {
        if (&p != &sum.front())
            out += " + ";
        appendProduct(out, p, values, sum.size() > 1, tr);
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

void appendJoined(Text &out, const std::vector<const char *> &items, Translator tr)
{
    for (const char *item : items) {
        if (item != items.front())
            out += "; ";
        appendWord(out, tr, item);
    }
}

/// A definition that only renames one symbol ("P_train = P").
bool isAlias(const TermFormula &f)
{
    return f.sum.size() == 1 && f.sum[0].factors.size() == 1 && !f.sum[0].part && !f.sum[0].factors[0].divides;
}

/// A term's formula as the derivation shows it: a term that is one symbol
/// with a definition ("W = W_model") reads better as that definition, so
/// the body is the innermost definition, and the definitions, notes and
/// sources of the formulas it unwrapped follow its own (without copying
/// the body).
struct Shown
{
    const TermFormula *body;
    std::vector<Definition> outerWhere;
    std::vector<const char *> outerNotes;
    std::vector<const char *> outerSources;

    template <typename Visit>
    void forEachDefinition(const Visit &visit) const
    {
        for (const Definition &d : body->where)
            visit(d);
        for (const Definition &d : outerWhere)
            visit(d);
    }
};

template <typename List, typename Outer>
Outer joinedLists(const List &inner, const Outer &outer)
{
    Outer all(inner.begin(), inner.end());
    all.insert(all.end(), outer.begin(), outer.end());
    return all;
}

Shown unwrapped(const TermFormula &how)
{
    Shown shown{&how, {}, {}, {}};
    while (isAlias(*shown.body)) {
        const Symbol *only = shown.body->sum[0].factors[0].symbol;
        const Definition *definition = nullptr;
        shown.forEachDefinition([&](const Definition &d) {
            if (!definition && d.symbol == only)
                definition = &d;
        });
        if (!definition)
            break;
        std::vector<Definition> where;
        shown.forEachDefinition([&](const Definition &d) {
            if (d.symbol != only)
                where.push_back(d);
        });
        // `definition` may live in outerWhere, which is replaced below.
        const TermFormula *inner = definition->formula;
        shown.outerNotes = joinedLists(shown.body->notes, shown.outerNotes);
        shown.outerSources = joinedLists(shown.body->sources, shown.outerSources);
        shown.outerWhere = std::move(where);
        shown.body = inner;
    }
    return shown;
}

/// Every definition a term's formula refers to, depth first, each once.
void definitions(const Definition &d, std::vector<Definition> &out)
{
    if (std::any_of(out.begin(), out.end(), [&d](const Definition &o) { return o.symbol == d.symbol; }))
        return;
    out.push_back(d);
    for (const Definition &inner : d.formula->where)
        definitions(inner, out);
}

/// What rendering one derivation needs room for; kept from term to term,
/// so that the lists grow once, not once per term.
struct Scratch
{
    Text text;
    std::vector<Definition> where;
    std::vector<const Symbol *> symbols;
    std::vector<const char *> notes;
    std::vector<const char *> sources;
};

/// Where a derivation's six texts lie in the text rendered: [begin, end)
/// of the formula, substituted, note, legend, source and result.
using Spans = std::array<std::pair<std::size_t, std::size_t>, 6>;

/// The derivation whose texts `spans` marks in `text`.
Derivation viewed(const std::shared_ptr<const std::string> &text, const Spans &spans)
{
    const auto view = [&text](const std::pair<std::size_t, std::size_t> &span) {
        return std::string_view(text->data() + span.first, span.second - span.first);
    };
    Derivation d;
    d.formula = view(spans[0]);
    d.substituted = view(spans[1]);
    d.note = view(spans[2]);
    d.legend = view(spans[3]);
    d.source = view(spans[4]);
    d.result = view(spans[5]);
    d.text = text;
    return d;
}

/// The derivation text of `term`, held by `outer` at the peak `when`
/// (nothing held where `outer` is null), appended to `room`'s text, which
/// outlives the call: where each of its texts lies.
Spans render(TermId term, const TermFormula *outer, const std::string &when, Bytes bytes, Translator tr, Scratch &room)
{
    static const TermFormula nothing;
    const Shown how = unwrapped(outer ? *outer : nothing);
    std::vector<Definition> &where = room.where;
    std::vector<const Symbol *> &symbols = room.symbols;
    std::vector<const char *> &notes = room.notes;
    std::vector<const char *> &sources = room.sources;
    where.clear();
    symbols.clear();
    notes.clear();
    sources.clear();
    how.forEachDefinition([&where](const Definition &d) { definitions(d, where); });
    Text &scratch = room.text;
    const auto collect = [&](const TermFormula &f) {
        for (const Product &p : f.sum)
            for (const Factor &factor : p.factors)
                addOnce(symbols, factor.symbol);
        for (const char *n : f.notes)
            addOnce(notes, n);
        for (const char *s : f.sources)
            addOnce(sources, s);
    };
    collect(*how.body);
    for (const char *n : how.outerNotes)
        addOnce(notes, n);
    for (const char *s : how.outerSources)
        addOnce(sources, s);
    for (const Definition &d : where)
        collect(*d.formula);
    const bool held = !how.body->sum.empty();

    Spans out{};
    const auto write = [&scratch](std::pair<std::size_t, std::size_t> &span, const auto &build) {
        span.first = scratch.size();
        build(scratch);
        span.second = scratch.size();
    };
    write(out[0], [&](Text &text) {
        text += text::termSymbol(term).name;
        text += " = ";
        appendSum(text, how.body->sum, false, tr);
        for (const Definition &d : where) {
            text += "; ";
            text += d.symbol->name;
            text += " = ";
            appendSum(text, d.formula->sum, false, tr);
        }
    });
    write(out[1], [&](Text &text) {
        appendSum(text, how.body->sum, true, tr);
        if (!held) {
            text += ": ";
            if (notes.empty())
                appendWord(text, tr, QT_TRANSLATE_NOOP("Derivation", "nothing of this term is held at this moment"));
            else
                appendJoined(text, notes, tr);
        }
        for (const Definition &d : where) {
            // An alias's value is already in the line it is used in.
            if (isAlias(*d.formula))
                continue;
            text += "; ";
            text += d.symbol->name;
            text += " = ";
            appendSum(text, d.formula->sum, true, tr);
            text += " = ";
            appendWithUnit(text, d.formula->evaluate(), d.symbol->unit, tr);
        }
    });
    write(out[2], [&](Text &text) {
        text += when;
        if (held && !notes.empty()) {
            text += "; ";
            appendJoined(text, notes, tr);
        }
    });
    write(out[3], [&](Text &text) {
        for (const Symbol *s : symbols) {
            if (s != symbols.front())
                text += "; ";
            text += s->name;
            text += ": ";
            appendWord(text, tr, s->meaning);
            if (!s->unit.empty()) {
                text += " (";
                appendWord(text, tr, s->unit);
                text += ')';
            }
        }
    });
    // Citations keep their authors' words.
    write(out[4], [&](Text &text) { appendJoined(text, sources, nullptr); });
    write(out[5], [&](Text &text) {
        text += formatBytes(bytes);
        text += " (";
        text += groupedDigits(bytes.count()).view();
        text += " B)";
    });
    return out;
}

/// Where an estimate's peak is, and its terms' derivations from the
/// formulas recorded there.
class Peak
{
public:
    Peak(const Estimate &e, const FormulaRecord &formulas, Translator tr)
        : m_estimate(e), m_formulas(formulas), m_tr(tr)
    {
        for (const PhaseTotal &p : e.phases)
            if (p.phase == e.peakPhase)
                m_moment = p.moment;
        m_when = core::render(Message{"Derivation", QT_TRANSLATE_NOOP("Derivation", "at the peak: %1"),
                                      {phaseName(e.peakPhase, tr)
                                       + (m_moment.empty() ? "" : ", " + translate(tr, "Derivation", m_moment.c_str()))}},
                              tr);
    }

    Derivation explain(TermId term)
    {
        m_room.text.clear();
        const Spans spans = renderTerm(term);
        return viewed(std::make_shared<const std::string>(m_room.text.str()), spans);
    }

    /// Every term into one text, one allocation for all of them.
    std::array<Derivation, kTermCount> explainAll()
    {
        m_room.text.clear();
        std::array<Spans, kTermCount> spans;
        for (TermId id : allTerms())
            spans[static_cast<std::size_t>(id)] = renderTerm(id);
        const auto text = std::make_shared<const std::string>(m_room.text.str());
        std::array<Derivation, kTermCount> all;
        for (std::size_t i = 0; i < kTermCount; ++i)
            all[i] = viewed(text, spans[i]);
        return all;
    }

private:
    Spans renderTerm(TermId term)
    {
        return render(term, m_formulas.find(m_estimate.peakPhase, m_moment, term), m_when, m_estimate.term(term), m_tr,
                      m_room);
    }

    const Estimate &m_estimate;
    const FormulaRecord &m_formulas;
    Translator m_tr;
    std::string m_moment;
    std::string m_when; ///< "at the peak: backward, loss backward"
    Scratch m_room;
};

} // namespace

Derivation explainTerm(const Scenario &s, const Estimate &e, TermId term, Translator translator)
{
    FormulaRecord formulas;
    recordFormulas(s, e, formulas);
    return Peak(e, formulas, translator).explain(term);
}

std::array<Derivation, kTermCount> explainTerms(const Scenario &s, const Estimate &e, Translator translator)
{
    FormulaRecord formulas;
    recordFormulas(s, e, formulas);
    return Peak(e, formulas, translator).explainAll();
}

Derivation explainTerm(const EstimateWithFits &result, TermId term, Translator translator)
{
    if (!result.formulas)
        return explainTerm(result.scenario, result.estimate, term, translator);
    return Peak(result.estimate, *result.formulas, translator).explain(term);
}

std::array<Derivation, kTermCount> explainTerms(const EstimateWithFits &result, Translator translator)
{
    if (!result.formulas)
        return explainTerms(result.scenario, result.estimate, translator);
    return Peak(result.estimate, *result.formulas, translator).explainAll();
}

} // namespace core
