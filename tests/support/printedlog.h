#pragma once

// Run logs as their printers write them: printf with the printing code's
// own format strings (copied from the source each reader cites), for the
// core and window tests of core/runlog.

#include <cstdarg>
#include <cstdio>
#include <string>

namespace testsupport {

/// `format` printed with the arguments, as the printer's printf would.
inline std::string printed(const char *format, ...)
{
    char buffer[512];
    va_list args;
    va_start(args, format);
    std::vsnprintf(buffer, sizeof buffer, format, args);
    va_end(args);
    return buffer;
}

// llama.cpp's format strings (src/llama-model.cpp, src/llama-kv-cache.cpp,
// src/llama-context.cpp, src/llama.cpp, ggml-cuda.cu).
inline const char *const kModelBuffer = "%s: %12s model buffer size = %8.2f MiB\n";
inline const char *const kKvBuffer = "%s: %10s KV buffer size = %8.2f MiB\n";
inline const char *const kComputeBuffer = "%s: %10s compute buffer size = %8.2f MiB\n";
inline const char *const kOutputBuffer = "%s: %10s  output buffer size = %8.2f MiB\n";
inline const char *const kKvSize = "%s: size = %7.2f MiB (%6u cells, %3d layers, %2u/%u seqs), K (%s): %7.2f MiB, V (%s): %7.2f MiB\n";
inline const char *const kOffloaded = "%s: offloaded %d/%d layers to GPU\n";
inline const char *const kUsingDevice = "%s: using device %s (%s) - %zu MiB free\n";
inline const char *const kCudaDevice = "  Device %d: %s, compute capability %d.%d, VMM: %s\n";
inline const char *const kContextCount = "%s: %s = %u\n";

// vLLM (vllm/worker/worker.py determine_num_available_blocks, 0.7), as
// logger.info prints the one message: three lines, a prefix on each
// (the worker's multiprocessing wrapper repeats it per line).
inline const char *const kVllmInstance = "the current vLLM instance can use total_gpu_memory (%.2fGiB) x gpu_memory_utilization (%.2f) = %.2fGiB\n";
inline const char *const kVllmTerms = "model weights take %.2fGiB; non_torch_memory takes %.2fGiB; PyTorch activation peak memory "
                                      "takes %.2fGiB; the rest of the memory reserved for KV Cache is %.2fGiB.\n";

} // namespace testsupport
