#include "core/io/quantconfig.h"

namespace core::io {

namespace {

/// bitsandbytes (transformers BitsAndBytesConfig): 8-bit LLM.int8(), or
/// 4-bit of bnb_4bit_quant_type (class default "fp4"), double-quantised
/// when bnb_4bit_use_double_quant.
std::string bitsandbytesFormat(JsonReader &quant)
{
    if (quant.boolean("load_in_8bit", false).value_or(false))
        return "bnb-int8";
    if (!quant.boolean("load_in_4bit", false).value_or(false))
        return "";
    const std::string type = quant.string("bnb_4bit_quant_type", false).value_or("fp4");
    if (type == "fp4")
        return "fp4";
    return quant.boolean("bnb_4bit_use_double_quant", false).value_or(false) ? "nf4-dq" : "nf4";
}

/// compressed-tensors (llm-compressor): the first config group's weight
/// scheme: 4-bit integers with group scales store as GPTQ does, 8-bit floats
/// as fp8.
std::string compressedTensorsFormat(JsonReader &quant)
{
    auto groups = quant.object("config_groups", false);
    if (!groups || !groups->json().is_object() || groups->json().empty())
        return "";
    const std::string first = groups->json().begin().key();
    auto group = groups->object(first.c_str(), false);
    auto weights = group ? group->object("weights", false) : std::nullopt;
    if (!weights)
        return "";
    const auto bits = weights->uint("num_bits", 1, 64, false).value_or(0);
    const std::string type = weights->string("type", false).value_or("int");
    if (type == "int" && bits == 4)
        return "gptq-4bit";
    if (type == "int" && bits == 8)
        return "int8";
    if (type == "float" && bits == 8)
        return "fp8";
    return "";
}

} // namespace

std::string checkpointFormatId(JsonReader &quant, std::vector<std::string> &warnings)
{
    const std::string method = quant.string("quant_method", false).value_or("");
    std::string id;
    if (method == "bitsandbytes")
        id = bitsandbytesFormat(quant);
    else if (method == "gptq" || method == "awq")
        id = quant.uint("bits", 1, 64, false).value_or(0) == 4 ? method + "-4bit" : "";
    else if (method == "fp8" || method == "mxfp4")
        id = method;
    else if (method == "compressed-tensors")
        id = compressedTensorsFormat(quant);
    if (id.empty())
        warnings.push_back(quant.pointer() + ": quant_method '" + method
                           + "' with these settings is not a format this planner models; the weights are taken "
                             "in the checkpoint's dtype");
    return id;
}

} // namespace core::io
