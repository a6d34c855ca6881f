#pragma once

// Reads a derivation's substituted text back as a reader would and
// evaluates it: the test of "the values shown evaluate to the result".

#include <cctype>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace testsupport {

/// The text without its " [part name]" labels.
inline std::string withoutParts(const std::string &text)
{
    std::string out;
    int depth = 0;
    for (char c : text) {
        if (c == '[')
            ++depth;
        else if (c == ']')
            --depth;
        else if (depth == 0)
            out += c;
    }
    return out;
}

inline std::vector<std::string> split(const std::string &text, const std::string &separator)
{
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (std::size_t at; (at = text.find(separator, start)) != std::string::npos; start = at + separator.size())
        parts.push_back(text.substr(start, at - start));
    parts.push_back(text.substr(start));
    return parts;
}

/// "1,048,576" -> 1048576, "0.05" -> 0.05; nullopt for a unit or a word.
inline std::optional<double> number(std::string token)
{
    std::string digits;
    for (char c : token)
        if (c != ',')
            digits += c;
    if (digits.empty() || std::isdigit(static_cast<unsigned char>(digits[0])) == 0)
        return std::nullopt;
    char *end = nullptr;
    const double value = std::strtod(digits.c_str(), &end);
    if (end == digits.c_str() || *end != '\0')
        return std::nullopt;
    return value;
}

/// A sum of products, "a x b / c + d x e" (units between the numbers are
/// read past), evaluated left to right as the engine does; text after a
/// ':' is a note. Nullopt when it is not such an expression.
inline std::optional<double> evaluate(const std::string &expression)
{
    const std::string plain = withoutParts(expression);
    const std::string text = plain.substr(0, plain.find(':'));
    double sum = 0;
    double product = 1;
    bool open = false;
    char op = 'x';
    bool expectNumber = true;
    for (const std::string &token : split(text, " ")) {
        if (token.empty())
            continue;
        if (token == "+" || token == "x" || token == "/") {
            if (expectNumber)
                return std::nullopt;
            if (token == "+") {
                sum += product;
                product = 1;
                open = false;
                op = 'x';
            } else {
                op = token[0];
            }
            expectNumber = true;
            continue;
        }
        const std::optional<double> value = number(token);
        if (!value)
            continue; // a unit
        if (!expectNumber)
            return std::nullopt;
        product = op == '/' ? product / *value : product * *value;
        open = true;
        expectNumber = false;
    }
    if (expectNumber && open)
        return std::nullopt;
    return open ? sum + product : sum;
}

/// The substituted line's own expression: before the first definition.
inline std::optional<double> evaluateTerm(std::string_view substituted)
{
    return evaluate(split(withoutParts(std::string(substituted)), "; ").front());
}

/// Products in the term's expression (each may round up by a byte).
inline std::size_t productCount(std::string_view substituted)
{
    return split(split(withoutParts(std::string(substituted)), "; ").front(), " + ").size();
}

/// Each definition, "sym = expression = value unit", as (evaluated
/// expression, value shown); nullopt where one does not read so.
inline std::optional<std::vector<std::pair<double, double>>> definitions(std::string_view substituted)
{
    std::vector<std::pair<double, double>> out;
    const std::vector<std::string> segments = split(withoutParts(std::string(substituted)), "; ");
    for (std::size_t i = 1; i < segments.size(); ++i) {
        const std::vector<std::string> sides = split(segments[i], " = ");
        if (sides.size() != 3)
            return std::nullopt;
        const std::optional<double> evaluated = evaluate(sides[1]);
        const std::optional<double> shown = number(split(sides[2], " ").front());
        if (!evaluated || !shown)
            return std::nullopt;
        out.emplace_back(*evaluated, *shown);
    }
    return out;
}

/// The symbols' names of a legend ("r: LoRA rank; n: such projections in
/// the model"): each entry's text before its ": ".
inline std::vector<std::string> legendNames(std::string_view legend)
{
    std::vector<std::string> names;
    if (legend.empty())
        return names;
    for (const std::string &entry : split(std::string(legend), "; "))
        names.push_back(entry.substr(0, entry.find(": ")));
    return names;
}

} // namespace testsupport
