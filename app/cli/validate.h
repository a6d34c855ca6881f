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

/// `vramplanner-cli validate --serving FILE`: each published serving
/// benchmark (engine, GPU, model, settings, a TTFT, one sequence's decode
/// rate or a prefill rate) beside the planner's time figure on that GPU,
/// the error, then the median and worst absolute error per metric. Exit 1
/// when a decode roofline is slower than a measurement (a bandwidth bound
/// can only be beaten by an error in it), else 0.
int runValidateServing(const std::string &path, std::ostream &out, std::ostream &err);

/// `vramplanner-cli validate --mine`: the runs kept with `compare --keep`,
/// each compared quantity as planned against measured with the error, then
/// the median and worst absolute error per quantity. Exit 0 (1 when the
/// file cannot be read, with nothing changed).
int runValidateMine(std::ostream &out, std::ostream &err);

} // namespace cli
