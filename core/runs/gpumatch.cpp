#include "core/runs/gpumatch.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>

namespace core::runlog {

namespace {

/// Lower-case words of a name, split at anything not a letter or digit,
/// parenthesised remarks dropped: "NVIDIA A10G 24GB (AWS EC2 G5)" ->
/// nvidia a10g 24gb.
std::vector<std::string> words(const std::string &name)
{
    std::vector<std::string> out;
    std::string word;
    int depth = 0;
    for (char c : name) {
        depth += c == '(' ? 1 : (c == ')' && depth > 0 ? -1 : 0);
        if (depth == 0 && std::isalnum(static_cast<unsigned char>(c))) {
            word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        } else if (!word.empty()) {
            out.push_back(word);
            word.clear();
        }
    }
    if (!word.empty())
        out.push_back(word);
    return out;
}

/// "80gb" -> 80.
std::optional<double> memoryWord(const std::string &word)
{
    if (word.size() < 3 || word.compare(word.size() - 2, 2, "gb") != 0)
        return std::nullopt;
    const std::string digits = word.substr(0, word.size() - 2);
    if (!std::all_of(digits.begin(), digits.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
        return std::nullopt;
    return std::stod(digits);
}

bool isBrandWord(const std::string &w)
{
    static const std::set<std::string> brands = {"nvidia", "geforce", "tesla", "quadro", "amd", "radeon", "instinct",
                                                 "intel", "apple", "graphics", "generation"};
    return brands.count(w) != 0;
}

} // namespace

std::vector<std::string> matchCatalogGpu(const std::string &deviceName, std::optional<Bytes> total,
                                         const Catalog &catalog)
{
    const std::vector<std::string> nameWords = words(deviceName);
    const std::set<std::string> present(nameWords.begin(), nameWords.end());
    std::optional<double> gib;
    for (const std::string &w : nameWords)
        if (const auto g = memoryWord(w))
            gib = g;
    if (!gib && total)
        gib = total->inGiB();

    std::vector<std::pair<std::size_t, std::string>> matches; // (model words matched, id)
    std::vector<std::string> sameModel; // the model number ("h100") matches, a form factor does not
    for (const GpuSpec &gpu : catalog.gpus) {
        std::size_t model = 0;
        bool all = true;
        bool number = false;
        for (const std::string &w : words(gpu.name)) {
            if (isBrandWord(w) || memoryWord(w))
                continue;
            ++model;
            all = all && present.count(w) != 0;
            const bool hasDigit = std::any_of(w.begin(), w.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
            number = number || (hasDigit && present.count(w) != 0);
        }
        if (model == 0 || (!all && !number))
            continue;
        // Sizes as printed (80GB, 16 GiB) and as the card reports them
        // (79.2 GiB usable of 80): within 10 % is the same card.
        if (gib && std::abs(gpu.memory.inGiB() - *gib) > 0.1 * gpu.memory.inGiB())
            continue;
        if (all)
            matches.emplace_back(model, gpu.id);
        else
            sameModel.push_back(gpu.id);
    }
    if (matches.empty())
        return sameModel;
    // The most specific names win: "RTX 6000 Ada" over "RTX A6000" is
    // settled by words; "A100 SXM4" over a bare "A100" by count.
    const std::size_t best = std::max_element(matches.begin(), matches.end())->first;
    std::vector<std::string> ids;
    for (const auto &[count, id] : matches)
        if (count == best)
            ids.push_back(id);
    return ids;
}

} // namespace core::runlog
