#pragma once

#include <ostream>
#include <string>

namespace cli {

/// `vramplanner-cli validate --published FILE --measured FILE`: runs every
/// case through the estimate command's own option parsing and prints
/// predicted vs measured, the error and the dominant terms, then the median
/// and worst absolute error per mode. Exit 0 when the targets hold:
/// published median <= 15 %; own measurements exact for parameters,
/// gradients and optimizer states, activations within 10 % (median 5 %).
int runValidate(const std::string &publishedPath, const std::string &measuredPath, std::ostream &out,
                std::ostream &err);

} // namespace cli
