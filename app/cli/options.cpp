#include "app/cli/options.h"

#include <algorithm>
#include <sstream>

namespace cli {

std::optional<Options> Options::parse(const std::vector<std::string> &args, const std::vector<OptionSpec> &specs,
                                      std::string &error)
{
    Options options;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string &arg = args[i];
        if (arg.size() < 3 || arg.compare(0, 2, "--") != 0) {
            error = "unexpected argument '" + arg + "'";
            return std::nullopt;
        }
        std::string name = arg.substr(2);
        std::optional<std::string> inlineValue;
        if (const auto eq = name.find('='); eq != std::string::npos) {
            inlineValue = name.substr(eq + 1);
            name = name.substr(0, eq);
        }
        const auto spec = std::find_if(specs.begin(), specs.end(),
                                       [&name](const OptionSpec &s) { return name == s.name; });
        if (spec == specs.end()) {
            error = "unknown option '--" + name + "'";
            return std::nullopt;
        }
        if (options.has(name)) {
            error = "--" + name + " is given more than once";
            return std::nullopt;
        }
        if (!spec->value) {
            if (inlineValue) {
                error = "--" + name + " takes no value";
                return std::nullopt;
            }
            options.m_values[name] = "";
            continue;
        }
        if (inlineValue) {
            options.m_values[name] = *inlineValue;
        } else if (i + 1 < args.size()) {
            options.m_values[name] = args[++i];
        } else {
            error = "--" + name + " needs a value (" + spec->value + ")";
            return std::nullopt;
        }
    }
    return options;
}

std::string describeOptions(const std::vector<OptionSpec> &specs)
{
    std::string text;
    for (const OptionSpec &s : specs) {
        std::string left = "  --" + std::string(s.name) + (s.value ? " " + std::string(s.value) : "");
        if (left.size() < 34)
            left.resize(34, ' ');
        else
            left += "\n" + std::string(34, ' ');
        // Help wraps at word boundaries to fit 100 columns.
        std::string line;
        std::istringstream words(s.help);
        for (std::string word; words >> word;) {
            if (!line.empty() && left.size() - left.rfind('\n') - 1 + line.size() + 1 + word.size() > 100) {
                text += left + line + "\n";
                left = std::string(34, ' ');
                line.clear();
            }
            line += (line.empty() ? "" : " ") + word;
        }
        text += left + line + "\n";
    }
    return text;
}

std::vector<std::string> commaList(const std::string &text)
{
    std::vector<std::string> items;
    std::size_t start = 0;
    while (true) {
        const std::size_t end = text.find(',', start);
        items.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
        if (end == std::string::npos)
            return items;
        start = end + 1;
    }
}

} // namespace cli
