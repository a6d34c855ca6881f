#include "ui/termexplanations.h"

#include <QCoreApplication>

namespace ui {

QString termExplanation(core::TermId id)
{
    switch (id) {
    case core::TermId::Weights:
        return QCoreApplication::translate(
            "Explanations", "The model's parameters in the format they are stored in: 2 bytes each in fp16/bf16, 4 in "
                            "fp32, about half a byte at 4 bits plus the scales that tell a quantised value what it "
                            "stands for. Quantisation libraries keep embeddings, the output layer and norms at 16 bits; "
                            "PEFT's QLoRA preparation casts them to fp32.");
    case core::TermId::Lora:
        return QCoreApplication::translate(
            "Explanations", "LoRA freezes the model and trains two thin matrices per adapted layer (rank r): r × "
                            "(inputs + outputs) parameters, a fraction of a percent of the model.");
    case core::TermId::MasterWeights:
        return QCoreApplication::translate(
            "Explanations", "With 16-bit weights, small updates would round away; the optimizer therefore updates an "
                            "fp32 copy of every trained parameter and casts it back to 16 bits after each step.");
    case core::TermId::Gradients:
        return QCoreApplication::translate(
            "Explanations", "One gradient per trained parameter, produced during backward. They are freed after the "
                            "optimizer step, unless gradient accumulation keeps them for the next micro-batch.");
    case core::TermId::Optimizer:
        return QCoreApplication::translate(
            "Explanations", "What the optimizer remembers between steps: Adam keeps a running mean and a running "
                            "variance of each gradient (two values per parameter), SGD with momentum one, plain SGD "
                            "none; 8-bit optimizers store them in one byte each.");
    case core::TermId::Activations:
        return QCoreApplication::translate(
            "Explanations", "Backward needs the inputs of every matrix multiply, norm and activation function of the "
                            "forward pass, so they are kept until used. They grow with batch × sequence; eager attention "
                            "also keeps the sequence × sequence attention probabilities. Checkpointing keeps only each "
                            "layer's input and recomputes the rest.");
    case core::TermId::Logits:
        return QCoreApplication::translate(
            "Explanations", "The output layer scores every vocabulary entry at every position: batch × sequence × "
                            "vocabulary values, upcast to fp32 for the loss. With 128k-token vocabularies this is often "
                            "the largest single tensor; a chunked loss avoids most of it.");
    case core::TermId::KvCache:
        return QCoreApplication::translate(
            "Explanations", "During generation each layer keeps the keys and values of every earlier token so they are "
                            "not recomputed: 2 × layers × key-value heads × head size per token. Grouped-query "
                            "attention shares keys and values between heads and shrinks it.");
    case core::TermId::Workspace:
        return QCoreApplication::translate(
            "Explanations", "Short-lived memory: one layer's intermediate tensors while it runs (prefill), a layer "
                            "recomputed during backward under checkpointing, or the temporaries of the optimizer step.");
    case core::TermId::GatherBuffer:
        return QCoreApplication::translate(
            "Explanations", "ZeRO-3 and FSDP keep only a shard of every layer; before a layer runs its full weights are "
                            "gathered from all GPUs into this buffer.");
    case core::TermId::CommBuffers:
        return QCoreApplication::translate(
            "Explanations", "NCCL, the library GPUs use to exchange gradients and weights, allocates its own buffers "
                            "outside PyTorch's allocator once more than one GPU takes part; a serving engine's own "
                            "all-reduce buffers are counted here too.");
    case core::TermId::CudaOverhead:
        return QCoreApplication::translate(
            "Explanations", "Memory the process holds before any tensor exists: the CUDA context and the kernels of "
                            "CUDA, cuBLAS and cuDNN. Lazy module loading (CUDA 11.7+) cut it from about 1.3 GB to a few "
                            "hundred MB.");
    case core::TermId::AllocatorReserve:
        return QCoreApplication::translate(
            "Explanations", "PyTorch's caching allocator rounds blocks up and keeps freed blocks for reuse, so what it "
                            "reserves exceeds what tensors use; fragmentation can make large allocations fail while "
                            "memory looks free. A planning margin: calibrate it against your own runs.");
    case core::TermId::Count:
        break;
    }
    return QString();
}

} // namespace ui
