#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cli {

struct OptionSpec
{
    const char *name;   ///< without the leading dashes
    const char *value;  ///< value placeholder for --help, nullptr for a flag
    std::string help;
};

/// Parsed `--name value`, `--name=value` and `--flag` arguments.
class Options
{
public:
    /// Parses `args` against `specs`; on failure returns nullopt and sets
    /// `error` to a message naming the argument. Unknown and repeated
    /// options are errors, never ignored.
    static std::optional<Options> parse(const std::vector<std::string> &args, const std::vector<OptionSpec> &specs,
                                        std::string &error);

    bool has(const std::string &name) const { return m_values.count(name) != 0; }
    const std::string &value(const std::string &name) const { return m_values.at(name); }

private:
    std::map<std::string, std::string> m_values;
};

/// The items of a comma-separated list ("a,b,c"); an empty item stays.
std::vector<std::string> commaList(const std::string &text);

/// "  --batch N          micro-batch per GPU" lines for --help.
std::string describeOptions(const std::vector<OptionSpec> &specs);

} // namespace cli
