<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>ClusterPanel</name>
    <message>
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 小时</translation>
    </message>
    <message>
        <source>%1 days</source>
        <translation>%1 天</translation>
    </message>
</context>
<context>
    <name>Derivation</name>
    <message>
        <source>nothing of this term is held at this moment</source>
        <translation>此刻该项不占用任何显存</translation>
    </message>
    <message>
        <source>at the peak: %1</source>
        <translation>峰值时：%1</translation>
    </message>
    <message>
        <source>weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>LoRA adapters</source>
        <translation>LoRA 适配器</translation>
    </message>
    <message>
        <source>fp32 master weights</source>
        <translation>fp32 主权重</translation>
    </message>
    <message>
        <source>gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>optimizer states</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <source>activations saved for backward</source>
        <translation>为反向保存的激活值</translation>
    </message>
    <message>
        <source>logits and loss</source>
        <translation>logits 与损失</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV 缓存</translation>
    </message>
    <message>
        <source>workspace: transient tensors</source>
        <translation>临时工作区：瞬时张量</translation>
    </message>
    <message>
        <source>ZeRO-3 gather buffer</source>
        <translation>ZeRO-3 聚合缓冲区</translation>
    </message>
    <message>
        <source>NCCL buffers</source>
        <translation>NCCL 缓冲区</translation>
    </message>
    <message>
        <source>CUDA context</source>
        <translation>CUDA 上下文</translation>
    </message>
    <message>
        <source>allocator reserve</source>
        <translation>分配器预留</translation>
    </message>
    <message>
        <source>micro-batch size</source>
        <translation>微批大小</translation>
    </message>
    <message>
        <source>tokens</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>sequence length</source>
        <translation>序列长度</translation>
    </message>
    <message>
        <source>vocabulary size</source>
        <translation>词表大小</translation>
    </message>
    <message>
        <source>hidden size</source>
        <translation>隐藏维度</translation>
    </message>
    <message>
        <source>attention heads</source>
        <translation>注意力头数</translation>
    </message>
    <message>
        <source>query width: heads x head_dim</source>
        <translation>查询宽度：头数 × head_dim</translation>
    </message>
    <message>
        <source>key/value width: kv_heads x head_dim</source>
        <translation>key/value 宽度：kv_heads x head_dim</translation>
    </message>
    <message>
        <source>key-value heads</source>
        <translation>键值头数</translation>
    </message>
    <message>
        <source>key-value heads on this rank: ceil(kv_heads / t), at least 1</source>
        <translation>本 rank 上的键值头数：ceil(kv_heads / t)，至少为 1</translation>
    </message>
    <message>
        <source>head dimension</source>
        <translation>每头维度</translation>
    </message>
    <message>
        <source>K and V</source>
        <translation>K 和 V</translation>
    </message>
    <message>
        <source>MLP intermediate size (of one expert in an MoE layer)</source>
        <translation>MLP 中间维度（MoE 层中为单个专家的）</translation>
    </message>
    <message>
        <source>experts each token runs through (routed top-k plus shared)</source>
        <translation>每个词元经过的专家数（路由的 top-k 加共享专家）</translation>
    </message>
    <message>
        <source>bytes of an fp32 element</source>
        <translation>一个 fp32 元素的字节数</translation>
    </message>
    <message>
        <source>bytes of an activation element</source>
        <translation>一个激活值元素的字节数</translation>
    </message>
    <message>
        <source>tensor-parallel ranks</source>
        <translation>张量并行 rank 数</translation>
    </message>
    <message>
        <source>data-parallel ranks ZeRO/FSDP shards over</source>
        <translation>ZeRO/FSDP 切分所跨的数据并行 rank 数</translation>
    </message>
    <message>
        <source>decoder layers on this rank</source>
        <translation>本 rank 上的解码器层</translation>
    </message>
    <message>
        <source>parameters of the model</source>
        <translation>模型参数量</translation>
    </message>
    <message>
        <source>parameters that train</source>
        <translation>可训练参数量</translation>
    </message>
    <message>
        <source>weight bytes of the whole model</source>
        <translation>整个模型的权重字节数</translation>
    </message>
    <message>
        <source>this rank&apos;s share of the parameters</source>
        <translation>本 rank 分得的参数</translation>
    </message>
    <message>
        <source>this rank&apos;s share of the adapters: its layers&apos; share / t</source>
        <translation>本 rank 分得的适配器：其各层的份额 / t</translation>
    </message>
    <message>
        <source>parameters of the largest layer (or embedding table)</source>
        <translation>最大一层（或嵌入表）的参数量</translation>
    </message>
    <message>
        <source>parameters of the lm_head</source>
        <translation>lm_head 的参数量</translation>
    </message>
    <message>
        <source>bytes per logits element: the tensors alive together</source>
        <translation>每个 logits 元素的字节数：同时存活的张量</translation>
    </message>
    <message>
        <source>vLLM max_num_batched_tokens</source>
        <translation>vLLM max_num_batched_tokens</translation>
    </message>
    <message>
        <source>ZeRO-Offload keeps the fp32 master weights and optimizer states in host memory and steps on the CPU</source>
        <translation>ZeRO-Offload 将 fp32 主权重和优化器状态放在主机内存中，并在 CPU 上执行优化器更新</translation>
    </message>
    <message>
        <source>decoder layers of the model</source>
        <translation>模型的解码器层数</translation>
    </message>
    <message>
        <source>this rank&apos;s share of the decoder layers</source>
        <translation>本 rank 分得的解码器层</translation>
    </message>
    <message>
        <source>parameters on this rank before tensor parallelism</source>
        <translation>张量并行之前本 rank 上的参数量</translation>
    </message>
    <message>
        <source>parameters of all decoder layers, experts excepted</source>
        <translation>全部解码器层的参数量（不含专家）</translation>
    </message>
    <message>
        <source>parameters of all routed experts</source>
        <translation>全部路由专家的参数量</translation>
    </message>
    <message>
        <source>expert-parallel ranks</source>
        <translation>专家并行 rank 数</translation>
    </message>
    <message>
        <source>parameters of the embedding tables</source>
        <translation>嵌入表的参数量</translation>
    </message>
    <message>
        <source>parameters of the embeddings and the lm_head</source>
        <translation>嵌入层与 lm_head 的参数量</translation>
    </message>
    <message>
        <source>pipeline stages: micro-batches the first stage holds (1F1B)</source>
        <translation>流水线阶段数：第一阶段持有的微批数（1F1B）</translation>
    </message>
    <message>
        <source>interleaving&apos;s extra warm-up: 1 + (p - 1) / (p x v)</source>
        <translation>交错调度的额外预热：1 + (p - 1) / (p x v)</translation>
    </message>
    <message>
        <source>decoder layers here</source>
        <translation>此处的解码器层</translation>
    </message>
    <message>
        <source>this rank&apos;s experts</source>
        <translation>本 rank 的专家</translation>
    </message>
    <message>
        <source>embedding (first stage)</source>
        <translation>嵌入层（第一阶段）</translation>
    </message>
    <message>
        <source>lm_head (last stage)</source>
        <translation>lm_head（最后阶段）</translation>
    </message>
    <message>
        <source>embedding and lm_head</source>
        <translation>嵌入层与 lm_head</translation>
    </message>
    <message>
        <source>pipeline parallelism: ceil(L / p) layers on each stage</source>
        <translation>流水线并行：每个阶段 ceil(L / p) 层</translation>
    </message>
    <message>
        <source>device_map=&quot;auto&quot;: ceil(L / GPUs) layers on each GPU</source>
        <translation>device_map=&quot;auto&quot;：每块 GPU 上 ceil(L / GPUs) 层</translation>
    </message>
    <message>
        <source>bytes of a 16-bit (or fp32) weight</source>
        <translation>一个 16-bit（或 fp32）权重的字节数</translation>
    </message>
    <message>
        <source>parameters stored in the weight format</source>
        <translation>以权重格式存储的参数量</translation>
    </message>
    <message>
        <source>bits</source>
        <translation>位</translation>
    </message>
    <message>
        <source>bits per stored weight</source>
        <translation>每个存储权重的位数</translation>
    </message>
    <message>
        <source>bits of the value itself</source>
        <translation>数值本身的位数</translation>
    </message>
    <message>
        <source>scales and zero-points per weight</source>
        <translation>每个权重分摊的缩放因子与零点</translation>
    </message>
    <message>
        <source>bits/B</source>
        <translation>位/字节</translation>
    </message>
    <message>
        <source>bits per byte</source>
        <translation>每字节的位数</translation>
    </message>
    <message>
        <source>embeddings, norms, biases (and usually lm_head), unquantised</source>
        <translation>嵌入层、归一化层、偏置（通常还有 lm_head），未量化</translation>
    </message>
    <message>
        <source>bytes of an unquantised parameter</source>
        <translation>一个未量化参数的字节数</translation>
    </message>
    <message>
        <source>quantised weights</source>
        <translation>量化的权重</translation>
    </message>
    <message>
        <source>unquantised weights</source>
        <translation>未量化的权重</translation>
    </message>
    <message>
        <source>value</source>
        <translation>数值</translation>
    </message>
    <message>
        <source>b_rest = 4: PEFT prepare_model_for_kbit_training casts the unquantised weights to fp32</source>
        <translation>b_rest = 4：PEFT prepare_model_for_kbit_training 会将未量化的权重转为 fp32</translation>
    </message>
    <message>
        <source>ZeRO-Infinity keeps the parameters in host memory and gathers a layer at a time</source>
        <translation>ZeRO-Infinity 将参数放在主机内存中，每次聚合一层</translation>
    </message>
    <message>
        <source>LoRA rank</source>
        <translation>LoRA 秩</translation>
    </message>
    <message>
        <source>input plus output features of the adapted projection</source>
        <translation>被适配投影的输入与输出特征数之和</translation>
    </message>
    <message>
        <source>such projections in the model</source>
        <translation>模型中此类投影的个数</translation>
    </message>
    <message>
        <source>q_proj adapters</source>
        <translation>q_proj 适配器</translation>
    </message>
    <message>
        <source>k_proj adapters</source>
        <translation>k_proj 适配器</translation>
    </message>
    <message>
        <source>v_proj adapters</source>
        <translation>v_proj 适配器</translation>
    </message>
    <message>
        <source>o_proj adapters</source>
        <translation>o_proj 适配器</translation>
    </message>
    <message>
        <source>gate_proj adapters</source>
        <translation>gate_proj 适配器</translation>
    </message>
    <message>
        <source>up_proj adapters</source>
        <translation>up_proj 适配器</translation>
    </message>
    <message>
        <source>down_proj adapters</source>
        <translation>down_proj 适配器</translation>
    </message>
    <message>
        <source>bytes of the fp32 master copy per parameter</source>
        <translation>每个参数的 fp32 主副本字节数</translation>
    </message>
    <message>
        <source>this regime keeps no separate master copy</source>
        <translation>此方案不保留单独的主副本</translation>
    </message>
    <message>
        <source>gradient bytes per parameter</source>
        <translation>每个参数的梯度字节数</translation>
    </message>
    <message>
        <source>elements</source>
        <translation>个元素</translation>
    </message>
    <message>
        <source>DeepSpeed reduce_bucket_size</source>
        <translation>DeepSpeed reduce_bucket_size</translation>
    </message>
    <message>
        <source>offloaded: gradients stream to the host through one reduce bucket</source>
        <translation>已卸载：梯度经由一个归约桶流式传到主机</translation>
    </message>
    <message>
        <source>start of backward: only the first gradients exist, the lm_head&apos;s (larger than any layer&apos;s)</source>
        <translation>反向开始时：只有最先产生的梯度，即 lm_head 的（比任何一层都大）</translation>
    </message>
    <message>
        <source>start of backward: only the first gradients exist, those of one layer (the largest)</source>
        <translation>反向开始时：只有最先产生的梯度，即一层（最大一层）的</translation>
    </message>
    <message>
        <source>start of backward: only the first gradients exist, the last layer&apos;s adapters</source>
        <translation>反向开始时：只有最先产生的梯度，即最后一层的适配器的</translation>
    </message>
    <message>
        <source>gradient accumulation keeps every gradient between micro-batches</source>
        <translation>梯度累积在微批之间保留全部梯度</translation>
    </message>
    <message>
        <source>optimizer states of all trainable parameters</source>
        <translation>全部可训练参数的优化器状态</translation>
    </message>
    <message>
        <source>full-size states per parameter</source>
        <translation>每个参数的完整尺寸状态数</translation>
    </message>
    <message>
        <source>bytes of one state element</source>
        <translation>一个状态元素的字节数</translation>
    </message>
    <message>
        <source>state bytes per parameter (8-bit states)</source>
        <translation>每个参数的状态字节数（8-bit 状态）</translation>
    </message>
    <message>
        <source>row and column accumulators of every matrix</source>
        <translation>每个矩阵的行、列累加器</translation>
    </message>
    <message>
        <source>elements of every vector parameter</source>
        <translation>每个向量参数的元素数</translation>
    </message>
    <message>
        <source>factored second moments of the matrices</source>
        <translation>矩阵的分解二阶矩</translation>
    </message>
    <message>
        <source>second moments of the vectors</source>
        <translation>向量的二阶矩</translation>
    </message>
    <message>
        <source>attention input (kept once for its readers)</source>
        <translation>注意力输入（为其各读取方只保存一份）</translation>
    </message>
    <message>
        <source>attention input: private casts of q, k, v</source>
        <translation>注意力输入：q、k、v 各自的私有类型转换副本</translation>
    </message>
    <message>
        <source>attention input: adapter dropout copies</source>
        <translation>注意力输入：适配器 dropout 副本</translation>
    </message>
    <message>
        <source>attention input: adapter dropout masks</source>
        <translation>注意力输入：适配器 dropout 掩码</translation>
    </message>
    <message>
        <source>MLP input (kept once for its readers)</source>
        <translation>MLP 输入（为其各读取方只保存一份）</translation>
    </message>
    <message>
        <source>MLP input: private casts of gate, up</source>
        <translation>MLP 输入：gate、up 各自的私有类型转换副本</translation>
    </message>
    <message>
        <source>MLP input: adapter dropout copies</source>
        <translation>MLP 输入：适配器 dropout 副本</translation>
    </message>
    <message>
        <source>MLP input: adapter dropout masks</source>
        <translation>MLP 输入：适配器 dropout 掩码</translation>
    </message>
    <message>
        <source>o_proj input (the attention output)</source>
        <translation>o_proj 输入（注意力输出）</translation>
    </message>
    <message>
        <source>o_proj input: private cast</source>
        <translation>o_proj 输入：私有类型转换副本</translation>
    </message>
    <message>
        <source>o_proj input: adapter dropout copy</source>
        <translation>o_proj 输入：适配器 dropout 副本</translation>
    </message>
    <message>
        <source>o_proj input: adapter dropout mask</source>
        <translation>o_proj 输入：适配器 dropout 掩码</translation>
    </message>
    <message>
        <source>down_proj input (the MLP product)</source>
        <translation>down_proj 输入（MLP 乘积）</translation>
    </message>
    <message>
        <source>down_proj input: private cast</source>
        <translation>down_proj 输入：私有类型转换副本</translation>
    </message>
    <message>
        <source>down_proj input: adapter dropout copy</source>
        <translation>down_proj 输入：适配器 dropout 副本</translation>
    </message>
    <message>
        <source>down_proj input: adapter dropout mask</source>
        <translation>down_proj 输入：适配器 dropout 掩码</translation>
    </message>
    <message>
        <source>lm_head input</source>
        <translation>lm_head 输入</translation>
    </message>
    <message>
        <source>lm_head input: private cast</source>
        <translation>lm_head 输入：私有类型转换副本</translation>
    </message>
    <message>
        <source>lm_head input: dropout copy</source>
        <translation>lm_head 输入：dropout 副本</translation>
    </message>
    <message>
        <source>lm_head input: dropout mask</source>
        <translation>lm_head 输入：dropout 掩码</translation>
    </message>
    <message>
        <source>attention norm input</source>
        <translation>注意力归一化输入</translation>
    </message>
    <message>
        <source>attention norm: fp32 input that pow saves</source>
        <translation>注意力归一化：pow 保存的 fp32 输入</translation>
    </message>
    <message>
        <source>attention norm: normalised input for its trained weight</source>
        <translation>注意力归一化：供其可训练权重使用的归一化后输入</translation>
    </message>
    <message>
        <source>MLP norm input</source>
        <translation>MLP 归一化输入</translation>
    </message>
    <message>
        <source>MLP norm: fp32 input that pow saves</source>
        <translation>MLP 归一化：pow 保存的 fp32 输入</translation>
    </message>
    <message>
        <source>MLP norm: normalised input for its trained weight</source>
        <translation>MLP 归一化：供其可训练权重使用的归一化后输入</translation>
    </message>
    <message>
        <source>final norm input</source>
        <translation>最终归一化输入</translation>
    </message>
    <message>
        <source>final norm: fp32 input that pow saves</source>
        <translation>最终归一化：pow 保存的 fp32 输入</translation>
    </message>
    <message>
        <source>final norm: normalised input for its trained weight</source>
        <translation>最终归一化：供其可训练权重使用的归一化后输入</translation>
    </message>
    <message>
        <source>B/token</source>
        <translation>字节/词元</translation>
    </message>
    <message>
        <source>bytes one layer saves per token, scores excepted</source>
        <translation>每层每个词元保存的字节数（不含注意力分数）</translation>
    </message>
    <message>
        <source>eager attention&apos;s score tensors of one layer</source>
        <translation>eager 注意力一层的分数张量</translation>
    </message>
    <message>
        <source>bytes per score element: the tensors softmax leaves</source>
        <translation>每个分数元素的字节数：softmax 留下的张量</translation>
    </message>
    <message>
        <source>bytes each layer keeps for backward</source>
        <translation>每层为反向保留的字节数</translation>
    </message>
    <message>
        <source>micro-batches in flight on this stage</source>
        <translation>本阶段同时在途的微批数</translation>
    </message>
    <message>
        <source>saved on the embedding side (first stage)</source>
        <translation>嵌入侧保存的（第一阶段）</translation>
    </message>
    <message>
        <source>saved by the final norm and the lm_head (last stage)</source>
        <translation>最终归一化与 lm_head 保存的（最后阶段）</translation>
    </message>
    <message>
        <source>bytes per token the embedding side saves</source>
        <translation>嵌入侧每个词元保存的字节数</translation>
    </message>
    <message>
        <source>bytes per token the final norm and lm_head save</source>
        <translation>最终归一化与 lm_head 每个词元保存的字节数</translation>
    </message>
    <message>
        <source>gradient bytes per token alive inside one layer&apos;s backward</source>
        <translation>一层反向过程中每个词元同时存活的梯度字节数</translation>
    </message>
    <message>
        <source>the MLP&apos;s I-wide gradients: of act(gate) x up, act(gate) and up</source>
        <translation>MLP 的 I 维梯度：act(gate) x up、act(gate) 与 up 的梯度</translation>
    </message>
    <message>
        <source>bytes of a residual-stream element</source>
        <translation>残差流元素的字节数</translation>
    </message>
    <message>
        <source>bytes of an attention tensor element</source>
        <translation>注意力张量元素的字节数</translation>
    </message>
    <message>
        <source>bytes of a projection output element</source>
        <translation>投影输出元素的字节数</translation>
    </message>
    <message>
        <source>bytes of the input element as its readers keep it</source>
        <translation>输入元素按其读取方保存时的字节数</translation>
    </message>
    <message>
        <source>bytes per element of a reader&apos;s private copy</source>
        <translation>读取方私有副本每个元素的字节数</translation>
    </message>
    <message>
        <source>bytes of the softmax output element</source>
        <translation>softmax 输出每个元素的字节数</translation>
    </message>
    <message>
        <source>a dropout mask byte</source>
        <translation>dropout 掩码的 1 个字节</translation>
    </message>
    <message>
        <source>such norms in the layer</source>
        <translation>该层中此类 norm 的个数</translation>
    </message>
    <message>
        <source>readers that keep such a copy</source>
        <translation>保留这样一份副本的读取方</translation>
    </message>
    <message>
        <source>I-wide tensors the activation function saves</source>
        <translation>激活函数保存的 I 宽张量</translation>
    </message>
    <message>
        <source>operands of act(gate) x up</source>
        <translation>act(gate) x up 的操作数</translation>
    </message>
    <message>
        <source>routed experts (router logits per token)</source>
        <translation>路由专家（每个词元的 router logits）</translation>
    </message>
    <message>
        <source>adapted projections per layer</source>
        <translation>每层被适配的投影数</translation>
    </message>
    <message>
        <source>bytes of an element of x·A</source>
        <translation>x·A 每个元素的字节数</translation>
    </message>
    <message>
        <source>q (saved by attention)</source>
        <translation>q（由注意力保存）</translation>
    </message>
    <message>
        <source>k and v (saved by attention)</source>
        <translation>k 和 v（由注意力保存）</translation>
    </message>
    <message>
        <source>k and v repeated to every head (repeat_kv)</source>
        <translation>复制到每个头的 k 和 v（repeat_kv）</translation>
    </message>
    <message>
        <source>attention kernel output</source>
        <translation>注意力内核输出</translation>
    </message>
    <message>
        <source>fp32 log-sum-exp per head</source>
        <translation>每个头的 fp32 log-sum-exp</translation>
    </message>
    <message>
        <source>dropout mask after o_proj</source>
        <translation>o_proj 之后的 dropout 掩码</translation>
    </message>
    <message>
        <source>activation function&apos;s saved inputs</source>
        <translation>激活函数保存的输入</translation>
    </message>
    <message>
        <source>act(gate) and up, saved by their product</source>
        <translation>act(gate) 与 up，由二者乘积保存</translation>
    </message>
    <message>
        <source>fp32 router logits</source>
        <translation>fp32 router logits</translation>
    </message>
    <message>
        <source>dropout mask after the MLP</source>
        <translation>MLP 之后的 dropout 掩码</translation>
    </message>
    <message>
        <source>x·A of each adapter, saved for B</source>
        <translation>每个适配器的 x·A，为 B 保存</translation>
    </message>
    <message>
        <source>softmax output</source>
        <translation>softmax 输出</translation>
    </message>
    <message>
        <source>copy the value matmul saves</source>
        <translation>值矩阵乘法保存的副本</translation>
    </message>
    <message>
        <source>attention dropout mask</source>
        <translation>注意力 dropout 掩码</translation>
    </message>
    <message>
        <source>tensors per token</source>
        <translation>每个词元的张量数</translation>
    </message>
    <message>
        <source>attention scores</source>
        <translation>注意力分数</translation>
    </message>
    <message>
        <source>MLP gradients</source>
        <translation>MLP 梯度</translation>
    </message>
    <message>
        <source>incoming gradient</source>
        <translation>传入的梯度</translation>
    </message>
    <message>
        <source>embedding dropout mask</source>
        <translation>嵌入层 dropout 掩码</translation>
    </message>
    <message>
        <source>embedding LayerNorm input</source>
        <translation>嵌入层 LayerNorm 输入</translation>
    </message>
    <message>
        <source>layer input (all that full recompute keeps)</source>
        <translation>层输入（完全重算时仅保留此项）</translation>
    </message>
    <message>
        <source>layers on this rank</source>
        <translation>本 rank 上的层数</translation>
    </message>
    <message>
        <source>embedding side</source>
        <translation>嵌入侧</translation>
    </message>
    <message>
        <source>final norm and lm_head</source>
        <translation>最终 norm 与 lm_head</translation>
    </message>
    <message>
        <source>selective recompute: the attention scores are recomputed</source>
        <translation>选择性重算：注意力分数被重算</translation>
    </message>
    <message>
        <source>full recompute: each layer keeps only its input</source>
        <translation>完全重算：每层仅保留其输入</translation>
    </message>
    <message>
        <source>bytes of a logits element as the lm_head emits it</source>
        <translation>lm_head 输出的 logits 每个元素的字节数</translation>
    </message>
    <message>
        <source>chunks of the chunked loss</source>
        <translation>分块损失的块数</translation>
    </message>
    <message>
        <source>sampler warm-up rows: min(max_num_batched_tokens, max_num_seqs)</source>
        <translation>采样器预热行数：min(max_num_batched_tokens, max_num_seqs)</translation>
    </message>
    <message>
        <source>bytes per row and vocabulary entry in the sampler</source>
        <translation>采样器中每行每个词表项的字节数</translation>
    </message>
    <message>
        <source>bytes of an int64 index</source>
        <translation>int64 索引的字节数</translation>
    </message>
    <message>
        <source>bytes of a bool mask element</source>
        <translation>bool 掩码每个元素的字节数</translation>
    </message>
    <message>
        <source>logits</source>
        <translation>logits</translation>
    </message>
    <message>
        <source>logits the training loop keeps</source>
        <translation>训练循环保留的 logits</translation>
    </message>
    <message>
        <source>fp32 logits the training loop keeps</source>
        <translation>训练循环保留的 fp32 logits</translation>
    </message>
    <message>
        <source>fp32 logits</source>
        <translation>fp32 logits</translation>
    </message>
    <message>
        <source>fp32 copy (.float())</source>
        <translation>fp32 副本（.float()）</translation>
    </message>
    <message>
        <source>shifted contiguous copy</source>
        <translation>移位后的连续副本</translation>
    </message>
    <message>
        <source>log-softmax output</source>
        <translation>log-softmax 输出</translation>
    </message>
    <message>
        <source>saved log-softmax</source>
        <translation>保存的 log-softmax</translation>
    </message>
    <message>
        <source>gradient from nll_loss</source>
        <translation>来自 nll_loss 的梯度</translation>
    </message>
    <message>
        <source>gradient out of log_softmax</source>
        <translation>log_softmax 输出的梯度</translation>
    </message>
    <message>
        <source>one chunk&apos;s logits</source>
        <translation>单块的 logits</translation>
    </message>
    <message>
        <source>one chunk&apos;s fp32 copy</source>
        <translation>单块的 fp32 副本</translation>
    </message>
    <message>
        <source>one chunk&apos;s fp32 gradient in</source>
        <translation>单块传入的 fp32 梯度</translation>
    </message>
    <message>
        <source>one chunk&apos;s fp32 gradient out</source>
        <translation>单块传出的 fp32 梯度</translation>
    </message>
    <message>
        <source>one chunk&apos;s logits gradient</source>
        <translation>单块的 logits 梯度</translation>
    </message>
    <message>
        <source>sampler rows</source>
        <translation>采样器行数</translation>
    </message>
    <message>
        <source>hidden states the forward left</source>
        <translation>前向留下的隐藏状态</translation>
    </message>
    <message>
        <source>sorted fp32 values</source>
        <translation>排序后的 fp32 值</translation>
    </message>
    <message>
        <source>int64 sort indices</source>
        <translation>int64 排序索引</translation>
    </message>
    <message>
        <source>top-k mask</source>
        <translation>top-k 掩码</translation>
    </message>
    <message>
        <source>top-p mask</source>
        <translation>top-p 掩码</translation>
    </message>
    <message>
        <source>fp32 softmax of the sorted values</source>
        <translation>排序值的 fp32 softmax</translation>
    </message>
    <message>
        <source>fp32 scatter result</source>
        <translation>fp32 scatter 结果</translation>
    </message>
    <message>
        <source>encoder-only: no causal-LM head, no logits</source>
        <translation>仅编码器：无因果语言模型头，无 logits</translation>
    </message>
    <message>
        <source>the lm_head and its logits live on the last pipeline stage</source>
        <translation>lm_head 及其 logits 位于最后一个流水线阶段</translation>
    </message>
    <message>
        <source>rows = max_num_seqs (fewer than the token budget)</source>
        <translation>行数 = max_num_seqs（少于词元预算）</translation>
    </message>
    <message>
        <source>rows = max_num_batched_tokens (fewer than max_num_seqs)</source>
        <translation>行数 = max_num_batched_tokens（少于 max_num_seqs）</translation>
    </message>
    <message>
        <source>bytes of a cached element</source>
        <translation>缓存元素的字节数</translation>
    </message>
    <message>
        <source>layer-tokens</source>
        <translation>层·词元</translation>
    </message>
    <message>
        <source>tokens cached, summed over this rank&apos;s layers</source>
        <translation>缓存的词元数，对本 rank 的各层求和</translation>
    </message>
    <message>
        <source>full-attention layers on this rank</source>
        <translation>本 rank 上的全注意力层数</translation>
    </message>
    <message>
        <source>sliding-window layers on this rank</source>
        <translation>本 rank 上的滑动窗口层数</translation>
    </message>
    <message>
        <source>sliding window, at most the context</source>
        <translation>滑动窗口，至多为上下文长度</translation>
    </message>
    <message>
        <source>full-attention layers</source>
        <translation>全注意力层</translation>
    </message>
    <message>
        <source>sliding-window layers</source>
        <translation>滑动窗口层</translation>
    </message>
    <message>
        <source>fewer key-value heads than ranks: each rank keeps a copy of one</source>
        <translation>键值头少于 rank 数：每个 rank 保留其中一个头的副本</translation>
    </message>
    <message>
        <source>encoder-only: no KV cache</source>
        <translation>仅编码器：无 KV 缓存</translation>
    </message>
    <message>
        <source>bytes of autocast&apos;s cached 16-bit copies per parameter</source>
        <translation>autocast 缓存的 16-bit 副本每个参数的字节数</translation>
    </message>
    <message>
        <source>bytes of a 16-bit cast</source>
        <translation>16-bit 转换的字节数</translation>
    </message>
    <message>
        <source>parameters of the layers&apos; linear weights</source>
        <translation>各层线性权重的参数量</translation>
    </message>
    <message>
        <source>elements of the largest quantised matrix</source>
        <translation>最大的量化矩阵的元素数</translation>
    </message>
    <message>
        <source>one layer&apos;s activations, recomputed</source>
        <translation>单层的激活值（重算）</translation>
    </message>
    <message>
        <source>gradients alive inside one layer&apos;s backward</source>
        <translation>单层反向中存活的梯度</translation>
    </message>
    <message>
        <source>bytes per parameter of the step&apos;s full-size temporary</source>
        <translation>优化器更新中全尺寸临时张量每个参数的字节数</translation>
    </message>
    <message>
        <source>two such tensors</source>
        <translation>两个此类张量</translation>
    </message>
    <message>
        <source>I-wide tensors alive together in the MLP</source>
        <translation>MLP 中同时存活的 I 宽张量</translation>
    </message>
    <message>
        <source>one layer&apos;s temporaries per token</source>
        <translation>单层每个词元的临时张量</translation>
    </message>
    <message>
        <source>bytes per score element: scores and softmax output</source>
        <translation>每个分数元素的字节数：分数与 softmax 输出</translation>
    </message>
    <message>
        <source>shared experts</source>
        <translation>共享专家</translation>
    </message>
    <message>
        <source>elements per token alive in one profiled layer</source>
        <translation>一个被剖析层中每个词元存活的元素数</translation>
    </message>
    <message>
        <source>autocast&apos;s 16-bit copies of the weights</source>
        <translation>autocast 的权重 16-bit 副本</translation>
    </message>
    <message>
        <source>autocast&apos;s 16-bit copies of the fp32 adapters</source>
        <translation>autocast 的 fp32 适配器 16-bit 副本</translation>
    </message>
    <message>
        <source>16-bit casts of the frozen fp32 linear weights</source>
        <translation>冻结的 fp32 线性权重的 16-bit 转换</translation>
    </message>
    <message>
        <source>16-bit cast of the frozen fp32 lm_head</source>
        <translation>冻结的 fp32 lm_head 的 16-bit 转换</translation>
    </message>
    <message>
        <source>dequantised base weight</source>
        <translation>反量化的基础权重</translation>
    </message>
    <message>
        <source>dequantised lm_head (or a larger layer weight)</source>
        <translation>反量化的 lm_head（或更大的层权重）</translation>
    </message>
    <message>
        <source>recomputed layer</source>
        <translation>重算的层</translation>
    </message>
    <message>
        <source>layer gradients</source>
        <translation>层梯度</translation>
    </message>
    <message>
        <source>layer input and its normed copy</source>
        <translation>层输入及其归一化副本</translation>
    </message>
    <message>
        <source>Q and the attention output</source>
        <translation>Q 与注意力输出</translation>
    </message>
    <message>
        <source>K and V repeated to every head (repeat_kv)</source>
        <translation>复制到每个头的 K 和 V（repeat_kv）</translation>
    </message>
    <message>
        <source>gate, up and act(gate)</source>
        <translation>gate、up 与 act(gate)</translation>
    </message>
    <message>
        <source>up projection and its activation</source>
        <translation>up 投影及其激活值</translation>
    </message>
    <message>
        <source>one layer&apos;s temporaries</source>
        <translation>单层的临时张量</translation>
    </message>
    <message>
        <source>fp32 softmax output</source>
        <translation>fp32 softmax 输出</translation>
    </message>
    <message>
        <source>q</source>
        <translation>q</translation>
    </message>
    <message>
        <source>attention output</source>
        <translation>注意力输出</translation>
    </message>
    <message>
        <source>routed experts&apos; gate_up and activation</source>
        <translation>路由专家的 gate_up 与激活值</translation>
    </message>
    <message>
        <source>routed experts&apos; outputs</source>
        <translation>路由专家的输出</translation>
    </message>
    <message>
        <source>merged gate_up</source>
        <translation>合并的 gate_up</translation>
    </message>
    <message>
        <source>SiluAndMul output</source>
        <translation>SiluAndMul 输出</translation>
    </message>
    <message>
        <source>up projection</source>
        <translation>up 投影</translation>
    </message>
    <message>
        <source>activation output</source>
        <translation>激活函数输出</translation>
    </message>
    <message>
        <source>attention&apos;s intermediates outweigh the MLP&apos;s</source>
        <translation>注意力的中间结果大于 MLP 的</translation>
    </message>
    <message>
        <source>the MLP&apos;s intermediates outweigh attention&apos;s</source>
        <translation>MLP 的中间结果大于注意力的</translation>
    </message>
    <message>
        <source>multi-tensor (foreach) Adam: _foreach_sqrt of the second moments into a new full-size list</source>
        <translation>多张量（foreach）Adam：_foreach_sqrt 将二阶矩写入新的全尺寸列表</translation>
    </message>
    <message>
        <source>fused or per-parameter step: no full-size temporary</source>
        <translation>融合或逐参数更新：无全尺寸临时张量</translation>
    </message>
    <message>
        <source>the current and the prefetched unit</source>
        <translation>当前单元与预取单元</translation>
    </message>
    <message>
        <source>bytes per gathered parameter (stored format)</source>
        <translation>每个聚合参数的字节数（存储格式）</translation>
    </message>
    <message>
        <source>not used: below ZeRO stage 3 every GPU holds whole layers</source>
        <translation>不适用：ZeRO 阶段 3 以下每个 GPU 持有完整的层</translation>
    </message>
    <message>
        <source>MiB</source>
        <translation>MiB</translation>
    </message>
    <message>
        <source>CUDA context and library workspaces</source>
        <translation>CUDA 上下文与库临时工作区</translation>
    </message>
    <message>
        <source>B/MiB</source>
        <translation>B/MiB</translation>
    </message>
    <message>
        <source>bytes per MiB</source>
        <translation>每 MiB 的字节数</translation>
    </message>
    <message>
        <source>NCCL buffer per channel and direction</source>
        <translation>每个通道每个方向的 NCCL 缓冲区</translation>
    </message>
    <message>
        <source>send and receive</source>
        <translation>发送与接收</translation>
    </message>
    <message>
        <source>channels</source>
        <translation>个通道</translation>
    </message>
    <message>
        <source>protocols</source>
        <translation>个协议</translation>
    </message>
    <message>
        <source>the GPU tensors at this moment</source>
        <translation>此刻的 GPU 张量</translation>
    </message>
    <message>
        <source>allocator reserve, as a share of the tensors</source>
        <translation>分配器预留，占张量的比例</translation>
    </message>
    <message>
        <source>set by the user</source>
        <translation>由用户设置</translation>
    </message>
    <message>
        <source>lazy CUDA module loading</source>
        <translation>CUDA 模块延迟加载</translation>
    </message>
    <message>
        <source>eager CUDA module loading</source>
        <translation>CUDA 模块立即加载</translation>
    </message>
    <message>
        <source>not used: one GPU creates no NCCL communicator</source>
        <translation>不适用：单 GPU 不创建 NCCL 通信器</translation>
    </message>
    <message>
        <source>end of forward</source>
        <translation>前向结束</translation>
    </message>
    <message>
        <source>inside the last layer</source>
        <translation>最后一层内部</translation>
    </message>
    <message>
        <source>loss backward</source>
        <translation>损失反向</translation>
    </message>
    <message>
        <source>last layer&apos;s backward</source>
        <translation>最后一层的反向</translation>
    </message>
    <message>
        <source>end of backward</source>
        <translation>反向结束</translation>
    </message>
    <message>
        <source>optimizer step</source>
        <translation>优化器更新</translation>
    </message>
    <message>
        <source>profile forward</source>
        <translation>剖析前向</translation>
    </message>
    <message>
        <source>sampler warm-up</source>
        <translation>采样器预热</translation>
    </message>
    <message>
        <source>prefill</source>
        <translation>预填充</translation>
    </message>
    <message>
        <source>one fp32 scale per tensor (negligible)</source>
        <translation>每个张量一个 fp32 缩放因子（可忽略）</translation>
    </message>
    <message>
        <source>none (teaching figure)</source>
        <translation>无（教学用数值）</translation>
    </message>
    <message>
        <source>one fp32 scale per output row</source>
        <translation>每个输出行一个 fp32 缩放因子</translation>
    </message>
    <message>
        <source>fp32 absmax per 64-weight block</source>
        <translation>每 64 个权重一块，每块一个 fp32 absmax</translation>
    </message>
    <message>
        <source>fp8 absmax per 64 weights + fp32 per 256 blocks</source>
        <translation>每 64 个权重一个 fp8 absmax + 每 256 块一个 fp32</translation>
    </message>
    <message>
        <source>fp16 scale + 4-bit zero per group, int32 g_idx per row</source>
        <translation>每组一个 fp16 缩放因子 + 4 位零点，每行一个 int32 g_idx</translation>
    </message>
    <message>
        <source>fp16 scale + 4-bit zero per group</source>
        <translation>每组一个 fp16 缩放因子 + 4 位零点</translation>
    </message>
    <message>
        <source>E8M0 scale per 32-weight block</source>
        <translation>每 32 个权重一块，每块一个 E8M0 缩放因子</translation>
    </message>
    <message>
        <source>fp16 scale per 32-weight block</source>
        <translation>每 32 个权重一块，每块一个 fp16 缩放因子</translation>
    </message>
    <message>
        <source>K-quant super-block scales (whole-file average)</source>
        <translation>K-quant 超块缩放因子（整个文件的平均值）</translation>
    </message>
    <message>
        <source>K-quant scales + Q6_K tensors in the mix (whole-file average)</source>
        <translation>K-quant 缩放因子 + 混入的 Q6_K 张量（整个文件的平均值）</translation>
    </message>
    <message>
        <source>K-quant scales + higher-precision tensors in the mix (whole-file average)</source>
        <translation>K-quant 缩放因子 + 混入的更高精度张量（整个文件的平均值）</translation>
    </message>
    <message>
        <source>bytes of this dtype&apos;s tensors, from the checkpoint&apos;s tensor table</source>
        <translation>该数据类型张量的字节数，取自检查点的张量表</translation>
    </message>
    <message>
        <source>read from the checkpoint on disk: the exact bytes the loader reads, by dtype</source>
        <translation>读取自磁盘上的检查点：加载器实际读取的精确字节数，按数据类型分列</translation>
    </message>
    <message>
        <source>the multi-token-prediction layers in the files are not loaded</source>
        <translation>文件中的多词元预测（MTP）层不会被加载</translation>
    </message>
    <message>
        <source>values one token caches in one attention layer on this rank</source>
        <translation>本 rank 上一个词元在一个注意力层中缓存的数值个数</translation>
    </message>
    <message>
        <source>latent width (kv_lora_rank)</source>
        <translation>潜向量宽度（kv_lora_rank）</translation>
    </message>
    <message>
        <source>shared RoPE key width (qk_rope_head_dim)</source>
        <translation>共享 RoPE 键宽度（qk_rope_head_dim）</translation>
    </message>
    <message>
        <source>attention heads on this rank</source>
        <translation>本 rank 上的注意力头数</translation>
    </message>
    <message>
        <source>key head dimension (qk_nope_head_dim + qk_rope_head_dim)</source>
        <translation>键的每头维度（qk_nope_head_dim + qk_rope_head_dim）</translation>
    </message>
    <message>
        <source>value head dimension (v_head_dim)</source>
        <translation>值的每头维度（v_head_dim）</translation>
    </message>
    <message>
        <source>linear-attention layers on this rank</source>
        <translation>本 rank 上的线性注意力层数</translation>
    </message>
    <message>
        <source>convolution state values per layer: (kernel - 1) x (2 key heads x key dim + value heads x value dim) / t</source>
        <translation>每层卷积状态的数值个数：(卷积核 - 1) x (2 x 键头数 x 键维度 + 值头数 x 值维度) / t</translation>
    </message>
    <message>
        <source>recurrent state values per layer: value heads / t x key dim x value dim</source>
        <translation>每层循环状态的数值个数：值头数 / t x 键维度 x 值维度</translation>
    </message>
    <message>
        <source>bytes of a state element</source>
        <translation>状态元素的字节数</translation>
    </message>
    <message>
        <source>attention layers&apos; cache</source>
        <translation>注意力层的缓存</translation>
    </message>
    <message>
        <source>latent</source>
        <translation>潜向量</translation>
    </message>
    <message>
        <source>shared RoPE key</source>
        <translation>共享 RoPE 键</translation>
    </message>
    <message>
        <source>keys</source>
        <translation>键</translation>
    </message>
    <message>
        <source>values</source>
        <translation>值</translation>
    </message>
    <message>
        <source>convolution state</source>
        <translation>卷积状态</translation>
    </message>
    <message>
        <source>recurrent state</source>
        <translation>循环状态</translation>
    </message>
    <message>
        <source>multi-head latent attention: vLLM caches the compressed latent and the shared RoPE key, the same on every tensor-parallel rank</source>
        <translation>多头潜在注意力（MLA）：vLLM 缓存压缩后的潜向量和共享 RoPE 键，每个张量并行 rank 上都是同一份</translation>
    </message>
    <message>
        <source>multi-head latent attention under Hugging Face generate: the cache holds every head&apos;s rebuilt key and value</source>
        <translation>在 Hugging Face generate 下的多头潜在注意力：缓存保存每个头重建后的键和值</translation>
    </message>
    <message>
        <source>linear-attention layers keep a fixed-size state per sequence instead of a growing cache</source>
        <translation>线性注意力层为每条序列保存固定大小的状态，而不是不断增长的缓存</translation>
    </message>
    <message>
        <source>Hugging Face keeps the recurrent state in fp32 (the delta-rule kernels return it so)</source>
        <translation>Hugging Face 以 fp32 保存循环状态（delta 规则内核就以 fp32 返回它）</translation>
    </message>
    <message>
        <source>bytes of the multi-token-prediction layers in the files</source>
        <translation>文件中多词元预测（MTP）层的字节数</translation>
    </message>
    <message>
        <source>MTP layers</source>
        <translation>MTP 层</translation>
    </message>
    <message>
        <source>convolution state values per layer: inputs kept x (d_inner + 2 x groups x state size) / t</source>
        <translation>每层卷积状态的数值个数：保留的输入数 x (d_inner + 2 x 组数 x 状态维度) / t</translation>
    </message>
    <message>
        <source>SSM state values per layer: Mamba heads / t x head dim x state size</source>
        <translation>每层 SSM 状态的数值个数：Mamba 头数 / t x 头维度 x 状态维度</translation>
    </message>
    <message>
        <source>bytes of an SSM state element (the config&apos;s mamba_ssm_cache_dtype)</source>
        <translation>SSM 状态每个元素的字节数（配置中的 mamba_ssm_cache_dtype）</translation>
    </message>
    <message>
        <source>SSM state</source>
        <translation>SSM 状态</translation>
    </message>
    <message>
        <source>multi-head latent attention under llama.cpp: K holds the latent and the RoPE key, V the latent again</source>
        <translation>llama.cpp 下的多头潜在注意力：K 存放潜向量与 RoPE 键，V 再存一份潜向量</translation>
    </message>
    <message>
        <source>vLLM and llama.cpp keep the last kernel - 1 convolution inputs</source>
        <translation>vLLM 与 llama.cpp 保留最近 kernel - 1 个卷积输入</translation>
    </message>
    <message>
        <source>Hugging Face keeps the last conv_kernel convolution inputs</source>
        <translation>Hugging Face 保留最近 conv_kernel 个卷积输入</translation>
    </message>
    <message>
        <source>vLLM keeps the SSM state in the dtype the config&apos;s mamba_ssm_cache_dtype names</source>
        <translation>vLLM 以配置中 mamba_ssm_cache_dtype 指定的数据类型保存 SSM 状态</translation>
    </message>
    <message>
        <source>Hugging Face keeps the SSM state in fp32 (the Mamba-2 scan returns its final state so)</source>
        <translation>Hugging Face 以 fp32 保存 SSM 状态（Mamba-2 扫描即以此精度返回最终状态）</translation>
    </message>
    <message>
        <source>CUDA allocations of the blk.N tensors of the layers on this GPU (128-byte aligned, quantised rows padded to 512)</source>
        <translation>此 GPU 上各层 blk.N 张量的 CUDA 分配量（按 128 字节对齐，量化张量的行补齐到 512）</translation>
    </message>
    <message>
        <source>CUDA allocations of output and output_norm (a copy of token_embd when tied)</source>
        <translation>output 与 output_norm 的 CUDA 分配量（权重共享时为 token_embd 的副本）</translation>
    </message>
    <message>
        <source>parameters of the repeating layers</source>
        <translation>重复层的参数量</translation>
    </message>
    <message>
        <source>repeating layers</source>
        <translation>重复层</translation>
    </message>
    <message>
        <source>repeating layers on this GPU (-ngl: the last ones)</source>
        <translation>此 GPU 上的重复层（-ngl：取最后若干层）</translation>
    </message>
    <message>
        <source>parameters of the output layer (token_embd&apos;s copy when tied)</source>
        <translation>输出层的参数量（权重共享时为 token_embd 的副本）</translation>
    </message>
    <message>
        <source>parallel sequences, one KV stream each</source>
        <translation>并行序列数，每条一个 KV 流</translation>
    </message>
    <message>
        <source>KV cells per sequence: the context rounded up to 256</source>
        <translation>每条序列的 KV 单元数：上下文长度向上取整到 256</translation>
    </message>
    <message>
        <source>cells of a sliding-window layer: min(n_ctx_seq, window + n_ubatch) rounded up to 256</source>
        <translation>滑动窗口层的单元数：min(n_ctx_seq, 窗口 + n_ubatch) 向上取整到 256</translation>
    </message>
    <message>
        <source>full-attention layers on this GPU</source>
        <translation>此 GPU 上的全注意力层</translation>
    </message>
    <message>
        <source>sliding-window layers on this GPU</source>
        <translation>此 GPU 上的滑动窗口层</translation>
    </message>
    <message>
        <source>bytes of one token&apos;s K row and V row in one layer: ggml_row_size(type_k, n_embd_k) + ggml_row_size(type_v, n_embd_v)</source>
        <translation>一个词元在一层中 K 行与 V 行的字节数：ggml_row_size(type_k, n_embd_k) + ggml_row_size(type_v, n_embd_v)</translation>
    </message>
    <message>
        <source>K values per token and layer</source>
        <translation>每个词元每层的 K 数值个数</translation>
    </message>
    <message>
        <source>V values per token and layer</source>
        <translation>每个词元每层的 V 数值个数</translation>
    </message>
    <message>
        <source>tokens of the micro-batch the compute buffer is reserved for</source>
        <translation>计算缓冲区按其预留的微批次词元数</translation>
    </message>
    <message>
        <source>hidden-wide f32 rows alive at the scores: residual, normed input, Q and roped Q</source>
        <translation>计算注意力分数时存活的隐藏宽度 f32 行：残差、归一化输入、Q 与施加 RoPE 后的 Q</translation>
    </message>
    <message>
        <source>f32 values alive per routed token: max(gate and up = 2 I, their product and down&apos;s output = I + h)</source>
        <translation>每个路由词元存活的 f32 数值：max(gate 与 up = 2 I，二者乘积与 down 的输出 = I + h)</translation>
    </message>
    <message>
        <source>bytes of an f16 element</source>
        <translation>f16 元素的字节数</translation>
    </message>
    <message>
        <source>output layer</source>
        <translation>输出层</translation>
    </message>
    <message>
        <source>KQ scores (f32, softmax in place)</source>
        <translation>KQ 分数（f32，softmax 原地计算）</translation>
    </message>
    <message>
        <source>KQ mask (f32)</source>
        <translation>KQ 掩码（f32）</translation>
    </message>
    <message>
        <source>hidden-wide rows</source>
        <translation>隐藏宽度的行</translation>
    </message>
    <message>
        <source>residual</source>
        <translation>残差</translation>
    </message>
    <message>
        <source>gate and up outputs</source>
        <translation>gate 与 up 的输出</translation>
    </message>
    <message>
        <source>logits of every micro-batch token (f32)</source>
        <translation>微批次中每个词元的 logits（f32）</translation>
    </message>
    <message>
        <source>normed input of the output matmul</source>
        <translation>输出矩阵乘法的归一化输入</translation>
    </message>
    <message>
        <source>the GGUF file&apos;s tensor table, placed as llama.cpp places it</source>
        <translation>取自 GGUF 文件的张量表，按 llama.cpp 的方式放置</translation>
    </message>
    <message>
        <source>no GGUF file: the weight format&apos;s bytes per parameter, placed as llama.cpp places them</source>
        <translation>没有 GGUF 文件：按权重格式每参数的字节数计算，并按 llama.cpp 的方式放置</translation>
    </message>
    <message>
        <source>token_embd stays in host memory (llama.cpp never offloads the input layer)</source>
        <translation>token_embd 留在主机内存（llama.cpp 从不卸载输入层到 GPU）</translation>
    </message>
    <message>
        <source>--no-kv-offload: the KV cache lives in host memory</source>
        <translation>--no-kv-offload：KV 缓存位于主机内存</translation>
    </message>
    <message>
        <source>llama.cpp&apos;s layer split copies activations between GPUs itself: no NCCL communicator</source>
        <translation>llama.cpp 的按层切分自行在 GPU 间复制激活：不使用 NCCL 通信器</translation>
    </message>
    <message>
        <source>llama.cpp allocates its buffers once, at start-up: no caching allocator</source>
        <translation>llama.cpp 在启动时一次性分配缓冲区：没有缓存分配器</translation>
    </message>
    <message>
        <source>eager attention (-fa off): the KQ matrix is materialised</source>
        <translation>普通注意力（-fa off）：KQ 矩阵被完整生成</translation>
    </message>
    <message>
        <source>graph-order estimate, not checked against a llama.cpp log</source>
        <translation>按计算图顺序的估计，尚未与 llama.cpp 日志核对</translation>
    </message>
    <message>
        <source>inside a layer</source>
        <translation>层内</translation>
    </message>
    <message>
        <source>parameters of the repeating layers on this GPU</source>
        <translation>此 GPU 上重复层的参数量</translation>
    </message>
    <message>
        <source>share of these layers&apos; parameters left after --n-cpu-moe keeps their routed experts on the CPU</source>
        <translation>--n-cpu-moe 将路由专家留在 CPU 后，这些层剩余参数所占的比例</translation>
    </message>
    <message>
        <source>--n-cpu-moe: the routed experts of the first layers stay in host memory</source>
        <translation>--n-cpu-moe：前若干层的路由专家留在主机内存</translation>
    </message>
    <message>
        <source>sequences generated per prompt: beams or samples</source>
        <translation>每个提示生成的序列数：束或采样数</translation>
    </message>
    <message>
        <source>weight bytes of the whole draft model, in the scenario&apos;s weight format</source>
        <translation>整个草稿模型的权重字节数，按本场景的权重格式</translation>
    </message>
    <message>
        <source>values one token caches in one of the draft&apos;s attention layers on this rank</source>
        <translation>一个词元在草稿模型某个注意力层（本进程上）缓存的数值个数</translation>
    </message>
    <message>
        <source>tokens the draft caches, summed over its layers</source>
        <translation>草稿模型缓存的词元数，对其各层求和</translation>
    </message>
    <message>
        <source>the target model&apos;s part on this GPU</source>
        <translation>目标模型在本 GPU 上的部分</translation>
    </message>
    <message>
        <source>the draft model&apos;s part on this GPU, laid out as llama.cpp lays out the target</source>
        <translation>草稿模型在本 GPU 上的部分，按 llama.cpp 摆放目标模型的方式摆放</translation>
    </message>
    <message>
        <source>target model</source>
        <translation>目标模型</translation>
    </message>
    <message>
        <source>draft model</source>
        <translation>草稿模型</translation>
    </message>
    <message>
        <source>llama.cpp keeps the draft&apos;s cache in f16 unless -ctkd/-ctvd say otherwise</source>
        <translation>除非 -ctkd/-ctvd 另有指定，llama.cpp 以 f16 保存草稿模型的缓存</translation>
    </message>
    <message>
        <source>parameters of the largest offloaded module: a decoder layer, or the lm_head when it is offloaded</source>
        <translation>被卸载的最大模块的参数量：一层解码器，或被卸载时的 lm_head</translation>
    </message>
    <message>
        <source>the model&apos;s weight bytes per parameter</source>
        <translation>模型每个参数的权重字节数</translation>
    </message>
    <message>
        <source>--cpu-offload-gb of each GPU, in bytes (GiB x 2^30)</source>
        <translation>每块 GPU 的 --cpu-offload-gb，换算为字节（GiB x 2^30）</translation>
    </message>
    <message>
        <source>this GPU&apos;s decoder-layer weight bytes: all that vLLM can offload</source>
        <translation>本 GPU 解码器层的权重字节数：vLLM 最多能卸载这么多</translation>
    </message>
    <message>
        <source>weight bytes of this GPU kept in host memory</source>
        <translation>本 GPU 留在主机内存中的权重字节数</translation>
    </message>
    <message>
        <source>taken away from the GPU</source>
        <translation>从 GPU 上移走</translation>
    </message>
    <message>
        <source>offloaded module while it runs</source>
        <translation>被卸载模块运行期间</translation>
    </message>
    <message>
        <source>kept in host memory</source>
        <translation>留在主机内存中</translation>
    </message>
    <message>
        <source>embedding (the lm_head in host memory)</source>
        <translation>嵌入层（lm_head 在主机内存中）</translation>
    </message>
    <message>
        <source>accelerate copies an offloaded module&apos;s weights to the GPU before it runs and frees them after: one module at a time</source>
        <translation>accelerate 在被卸载模块运行前把其权重复制到 GPU，运行后释放：每次一个模块</translation>
    </message>
    <message>
        <source>the budget exceeds this GPU&apos;s decoder layers: all of them are offloaded</source>
        <translation>预算超过本 GPU 的全部解码器层：它们全部被卸载</translation>
    </message>
    <message>
        <source>vLLM moves whole parameters, the first layers&apos; first, until the budget is reached: the last one moved may pass it by up to one tensor</source>
        <translation>vLLM 以整个参数为单位、从最前面的层开始搬移，直到达到预算：最后搬移的那个参数可能使总量超出预算至多一个张量</translation>
    </message>
    <message>
        <source>device_map with CPU offload: the first --gpu-layers layers on the GPUs, the rest and the lm_head in host memory</source>
        <translation>device_map 开启 CPU 卸载：前 --gpu-layers 层在 GPU 上，其余各层与 lm_head 在主机内存中</translation>
    </message>
    <message>
        <source>16-bit scale per group</source>
        <translation>每组一个 16 位缩放因子</translation>
    </message>
    <message>
        <source>FP8 E4M3 scale per 16-weight block</source>
        <translation>每 16 个权重一个 FP8 E4M3 缩放因子</translation>
    </message>
    <message>
        <source>bytes of the sparse-attention indexer&apos;s key per layer and token: index_head_dim fp8 values and one fp32 scale per 128</source>
        <translation>稀疏注意力索引器每层每个词元 的键所占字节：index_head_dim 个 fp8 值，每 128 个值一个 fp32 缩放因子</translation>
    </message>
    <message>
        <source>sparse-attention indexer&apos;s keys</source>
        <translation>稀疏注意力索引器的键</translation>
    </message>
    <message>
        <source>DeepSeek Sparse Attention: vLLM keeps the lightning indexer&apos;s keys in a cache of their own, in every layer, for the whole context</source>
        <translation>DeepSeek 稀疏注意力：vLLM 在每一层为闪电索引器的键单独保留一份缓存，覆盖整个上下文</translation>
    </message>
    <message>
        <source>compressed layers of this ratio on this rank</source>
        <translation>本卡上该压缩比的压缩层数</translation>
    </message>
    <message>
        <source>bytes of one cached entry in vLLM&apos;s fp8_ds_mla layout: fp8 values of the non-RoPE part, bf16 RoPE part, one scale per 64, one pad byte</source>
        <translation>vLLM fp8_ds_mla 布局下一个缓存条目的字节数：非 RoPE 部分为 fp8，RoPE 部分为 bf16，每 64 个值一个缩放因子，外加一个填充字节</translation>
    </message>
    <message>
        <source>fp32 compressor state of one sequence in one layer: the current (and, for ratio 4, the previous) window&apos;s entries and scores, and the indexer&apos;s</source>
        <translation>一个序列在一层中的 fp32 压缩器状态：当前窗口（压缩比为 4 时还有上一个窗口）的条目与得分，以及索引器的状态</translation>
    </message>
    <message>
        <source>compressed entries</source>
        <translation>压缩条目</translation>
    </message>
    <message>
        <source>compressed layers</source>
        <translation>压缩层</translation>
    </message>
    <message>
        <source>compressor state</source>
        <translation>压缩器状态</translation>
    </message>
    <message>
        <source>DeepSeek-V4: every layer keeps a window of raw entries and, where its ratio r is set, one compressed entry per r tokens; one latent serves as key and value</source>
        <translation>DeepSeek-V4：每层保留一个原始条目窗口；设置了压缩比 r 的层每 r 个词元 再保留一个压缩条目；同一个潜向量既作键也作值</translation>
    </message>
    <message>
        <source>vLLM stores DeepSeek-V4&apos;s cache as fp8_ds_mla whatever the KV dtype</source>
        <translation>无论 KV 数据类型如何，vLLM 都以 fp8_ds_mla 格式存储 DeepSeek-V4 的缓存</translation>
    </message>
    <message>
        <source>the layers&apos; other linear weights, in the checkpoint&apos;s second format</source>
        <translation>各层其余的线性权重，以检查点的第二种格式存储</translation>
    </message>
    <message>
        <source>other linear weights</source>
        <translation>其余线性权重</translation>
    </message>
    <message>
        <source>the checkpoint ships its other linear weights in a second quantised format (DeepSeek-V4: block fp8 beside MXFP4 experts)</source>
        <translation>检查点以第二种量化格式发布其余线性权重（DeepSeek-V4：MXFP4 专家之外为分块 fp8）</translation>
    </message>
    <message>
        <source>layers on this rank, each with a cache slot</source>
        <translation>本卡上的层数（每层一个缓存槽）</translation>
    </message>
    <message>
        <source>Hugging Face&apos;s Lfm2HybridConvCache keeps conv_L_cache inputs for every layer, attention layers included</source>
        <translation>Hugging Face 的 Lfm2HybridConvCache 为每一层（包括注意力层）保留 conv_L_cache 个输入</translation>
    </message>
    <message>
        <source>vLLM and SGLang keep Kimi Delta Attention&apos;s recurrent state in fp32 (kda_state_dtype)</source>
        <translation>vLLM 与 SGLang 以 fp32 保存 Kimi Delta Attention 的循环状态（kda_state_dtype）</translation>
    </message>
    <message>
        <source>layers on this rank with an indexer of their own</source>
        <translation>本卡上拥有自己索引器的层数</translation>
    </message>
    <message>
        <source>llama.cpp keeps the recurrent and convolution states in f32 (llama_memory_recurrent type_r = type_s = GGML_TYPE_F32)</source>
        <translation>llama.cpp 以 f32 保存循环状态与卷积状态（llama_memory_recurrent type_r = type_s = GGML_TYPE_F32）</translation>
    </message>
    <message>
        <source>compressed entries of the context, floor(T / r)</source>
        <translation>上下文的压缩条目数，floor(T / r)</translation>
    </message>
    <message>
        <source>the trained weights are fp32 already, so there is no separate master copy</source>
        <translation>被训练的权重本身已是 fp32，因此没有单独的主副本</translation>
    </message>
    <message>
        <source>bytes of a cached K value: -ctk (f16 2, q8_0 34/32, q4_0 18/32)</source>
        <translation>每个缓存 K 值的字节数：-ctk（f16 为 2，q8_0 为 34/32，q4_0 为 18/32）</translation>
    </message>
    <message>
        <source>bytes of a cached V value: -ctv, as -ctk unless set</source>
        <translation>每个缓存 V 值的字节数：-ctv，未设置时同 -ctk</translation>
    </message>
    <message>
        <source>KQ mask (f16, for flash attention)</source>
        <translation>KQ 掩码（f16，供 Flash Attention 使用）</translation>
    </message>
    <message>
        <source>up, gate and their product (ungated: up)</source>
        <translation>up、gate 及二者之积（无门控时只有 up）</translation>
    </message>
    <message>
        <source>flash attention: no KQ matrix; the mask is made in f16</source>
        <translation>Flash Attention：没有 KQ 矩阵；掩码直接以 f16 建立</translation>
    </message>
    <message>
        <source>--kv-cache-dtype-skip-layers: the named layers cache in the model&apos;s dtype, the others in the KV cache format; e_kv is the mean over this group&apos;s layers (layer indices counted in proportion to the kinds)</source>
        <translation>--kv-cache-dtype-skip-layers：列出的层以模型的数据类型缓存，其余层用 KV 缓存格式；e_kv 是这一组各层的平均值（层编号按各类层所占比例计）</translation>
    </message>
    <message>
        <source>torch.optim.AdamW&apos;s default on CUDA is foreach (PyTorch 2.0 or later)</source>
        <translation>torch.optim.AdamW 在 CUDA 上默认用 foreach（PyTorch 2.0 及以后）</translation>
    </message>
    <message>
        <source>torch.optim.AdamW&apos;s default is a loop over the parameters (PyTorch before 2.0)</source>
        <translation>torch.optim.AdamW 默认逐个参数循环（PyTorch 2.0 之前）</translation>
    </message>
    <message>
        <source>the Trainer&apos;s default optim is adamw_hf, its own AdamW a parameter at a time (transformers before 4.32)</source>
        <translation>Trainer 默认的 optim 是 adamw_hf，即它自己的 AdamW，逐个参数更新（transformers 4.32 之前）</translation>
    </message>
    <message>
        <source>the Trainer&apos;s default optim is adamw_torch_fused (transformers 4.54 or later with PyTorch 2.8 or later)</source>
        <translation>Trainer 默认的 optim 是 adamw_torch_fused（transformers 4.54 及以后，且 PyTorch 2.8 及以后）</translation>
    </message>
    <message>
        <source>the Trainer&apos;s default optim is adamw_torch, torch.optim.AdamW, foreach on CUDA (transformers 4.32 to 4.53, or PyTorch 2.0 to 2.7)</source>
        <translation>Trainer 默认的 optim 是 adamw_torch，即 torch.optim.AdamW，在 CUDA 上用 foreach（transformers 4.32 至 4.53，或 PyTorch 2.0 至 2.7）</translation>
    </message>
    <message>
        <source>the Trainer&apos;s default optim is adamw_torch, torch.optim.AdamW, a loop over the parameters (PyTorch before 2.0)</source>
        <translation>Trainer 默认的 optim 是 adamw_torch，即 torch.optim.AdamW，逐个参数循环（PyTorch 2.0 之前）</translation>
    </message>
    <message>
        <source>-ngl 0: the output layer stays on the CPU</source>
        <translation>-ngl 0：输出层留在 CPU 上</translation>
    </message>
    <message>
        <source>the output layer is on the last GPU of the split</source>
        <translation>输出层在切分的最后一张 GPU 上</translation>
    </message>
    <message>
        <source>tokens of one chunk: the next power of two of b x s / ceil(V / h), at most b x s</source>
        <translation>一个分块的词元数：b x s / ceil(V / h) 向上取 2 的幂，至多 b x s</translation>
    </message>
    <message>
        <source>hidden states&apos; gradient, computed in the forward</source>
        <translation>隐藏状态的梯度（在前向中算出）</translation>
    </message>
    <message>
        <source>fp32 loss per token</source>
        <translation>每个词元的 fp32 损失</translation>
    </message>
    <message>
        <source>output layer&apos;s weight gradient, filled in the forward</source>
        <translation>输出层权重的梯度（在前向中填好）</translation>
    </message>
    <message>
        <source>the output layer and the loss run a chunk of tokens at a time: the logits never exist whole</source>
        <translation>输出层与损失按词元分块一起计算：完整的 logits 从不存在</translation>
    </message>
    <message>
        <source>offloaded checkpointing: each layer&apos;s input waits in host memory, the GPU keeps none</source>
        <translation>卸载式检查点：每层的输入放在主机内存中，GPU 上不保留</translation>
    </message>
    <message>
        <source>loading the last weight</source>
        <translation>加载最后一个权重时</translation>
    </message>
    <message>
        <source>the last weight&apos;s 16-bit copy, quantised on the GPU</source>
        <translation>最后一个权重的 16 位副本，在 GPU 上量化</translation>
    </message>
    <message>
        <source>elements of the largest quantised weight (the lm_head where the stack quantises it)</source>
        <translation>最大的量化权重的元素数（若该框架量化 lm_head，则为 lm_head）</translation>
    </message>
    <message>
        <source>bytes a dequantisation allocates per weight element (bitsandbytes: one 16-bit copy; torchao NF4: two int64 index tensors of n/2 and three half-size 16-bit intermediates; compiled: one 16-bit copy)</source>
        <translation>反量化为每个权重元素分配的字节数（bitsandbytes：一份 16-bit 副本；torchao NF4：两个 n/2 的 int64 索引张量和三个半尺寸的 16-bit 中间结果；编译后：一份 16-bit 副本）</translation>
    </message>
    <message>
        <source>gathering one unit</source>
        <translation>聚合一个单元时</translation>
    </message>
    <message>
        <source>gate and up, from which backward recomputes act(gate)</source>
        <translation>gate 与 up，反向传播据此重算 act(gate)</translation>
    </message>
    <message>
        <source>all-reduce workspace per rank</source>
        <translation>每个 rank 的 all-reduce 工作区</translation>
    </message>
    <message>
        <source>IPC buffers and three Lamport buffers</source>
        <translation>IPC 缓冲区与三份 Lamport 缓冲区</translation>
    </message>
    <message>
        <source>an fp32 scale per token and head</source>
        <translation>每个词元、每个头一个 fp32 缩放因子</translation>
    </message>
    <message>
        <source>bytes of one cached entry in vLLM&apos;s fp8_ds_mla layout for sparse MLA: the fp8 latent, an fp32 scale per 128 of its values, the bf16 RoPE key</source>
        <translation>vLLM 稀疏 MLA 的 fp8_ds_mla 布局中一个缓存条目的字节数：fp8 潜向量、每 128 个值一个 fp32 缩放因子、bf16 的 RoPE 键</translation>
    </message>
    <message>
        <source>vLLM keeps DeepSeek Sparse Attention&apos;s latent as fp8_ds_mla unless the KV cache format is bf16</source>
        <translation>除非 KV 缓存格式设为 bf16，vLLM 将 DeepSeek 稀疏注意力的潜向量存为 fp8_ds_mla</translation>
    </message>
    <message>
        <source>fp16 norms, scales and zero points per token and head</source>
        <translation>每个词元、每个头的 fp16 范数、缩放因子与零点</translation>
    </message>
    <message>
        <source>each of the profile&apos;s dummy requests samples one token: its logits (a row a request) are not planned</source>
        <translation>剖析中的每个虚拟请求只采样一个词元：其 logits（每个请求一行）不计入</translation>
    </message>
    <message>
        <source>e_kv counts the format&apos;s scales with its values: per token and head, per 16 values (NVFP4) or per slot (TurboQuant)</source>
        <translation>e_kv 同时计入该格式的缩放因子：按词元和头、每 16 个值（NVFP4）或每个槽（TurboQuant）</translation>
    </message>
    <message>
        <source>the engine&apos;s defaults (TensorRT-LLM: max_num_tokens 8,192, max_batch_size 2,048)</source>
        <translation>引擎的默认值（TensorRT-LLM：max_num_tokens 8,192，max_batch_size 2,048）</translation>
    </message>
    <message>
        <source>vLLM V0&apos;s defaults (before 0.8): 256 sequences; max(max_model_len, 2,048) tokens a step, or with chunked prefill (max_model_len over 32,768) 512, 2,048 from 0.7</source>
        <translation>vLLM V0 的默认值（0.8 之前）：256 个序列；每步 max(max_model_len, 2,048) 个词元，开启分块预填充时（max_model_len 超过 32,768）为 512，0.7 起为 2,048</translation>
    </message>
    <message>
        <source>vllm serve&apos;s defaults in 0.8.0 to 0.8.3: 1,024 sequences on every card; 8,192 tokens a step on a card of 70 GiB or more, else 2,048</source>
        <translation>vllm serve 在 0.8.0 至 0.8.3 的默认值：任何显卡都是 1,024 个序列；70 GiB 及以上的显卡每步 8,192 个词元，其余 2,048</translation>
    </message>
    <message>
        <source>vllm serve&apos;s defaults on a card of 70 GiB or more (an A100 excepted from 0.9): 8,192 tokens a step, 1,024 sequences</source>
        <translation>vllm serve 在 70 GiB 及以上显卡上的默认值（自 0.9 起 A100 除外）：每步 8,192 个词元，1,024 个序列</translation>
    </message>
    <message>
        <source>vllm serve&apos;s defaults on a card under 70 GiB or an A100: 2,048 tokens a step, 256 sequences</source>
        <translation>vllm serve 在 70 GiB 以下显卡或 A100 上的默认值：每步 2,048 个词元，256 个序列</translation>
    </message>
    <message>
        <source>fp32 probabilities (softmax)</source>
        <translation>fp32 概率（softmax）</translation>
    </message>
    <message>
        <source>fp32 exponential draw (random_sample&apos;s q)</source>
        <translation>fp32 指数分布抽样（random_sample 的 q）</translation>
    </message>
    <message>
        <source>top-k and top-p applied in place by vLLM&apos;s Triton kernel (0.17 on, 8 rows or more): no sort; the kernel&apos;s buffer of at most one row per SM is not planned</source>
        <translation>top-k 与 top-p 由 vLLM 的 Triton 内核原地完成（0.17 起，8 行及以上）：不排序；内核自身每个 SM 至多一行的缓冲区不计入</translation>
    </message>
    <message>
        <source>bytes of the sparse-attention indexer&apos;s key per layer and token: index_head_dim values in the model&apos;s dtype (llama.cpp: f32), one key head on every rank</source>
        <translation>稀疏注意力索引器每层每个词元的键字节数：index_head_dim 个值，取模型的数据类型（llama.cpp 为 f32），一个键头，每个秩都保存</translation>
    </message>
    <message>
        <source>MiniMax Sparse Attention: every runtime keeps the indexer&apos;s key of each sparse layer beside the K/V cache, unquantised whatever the KV format, for the whole context</source>
        <translation>MiniMax 稀疏注意力：每个运行时都在 K/V 缓存旁为每个稀疏层保存索引器的键，无论 KV 格式如何都不量化，覆盖整个上下文</translation>
    </message>
    <message>
        <source>DeepSeek Sparse Attention: transformers keeps the lightning indexer&apos;s keys in its cache beside the rebuilt keys and values, in the model&apos;s dtype, for the whole context</source>
        <translation>DeepSeek 稀疏注意力：transformers 在缓存中把闪电索引器的键与重建的键和值放在一起，取模型的数据类型，覆盖整个上下文</translation>
    </message>
    <message>
        <source>Model Runner V2&apos;s warm-up samples greedily (temperature 0, no top-k or top-p, no fp32 copy): the logits only; a request with top-k or top-p needs more than was profiled</source>
        <translation>Model Runner V2 的预热采样是贪心的（温度 0，没有 top-k 与 top-p，也没有 fp32 副本）：只计 logits；带 top-k 或 top-p 的请求需要的显存多于预估时测得的</translation>
    </message>
    <message>
        <source>parameters every tensor-parallel rank holds whole: routers, norms, MLA&apos;s down-projections, the sparse-attention indexer</source>
        <translation>每个张量并行 rank 完整保存的参数：路由器、归一化层、MLA 的降维投影、稀疏注意力索引器</translation>
    </message>
    <message>
        <source>parameters of the key and value projections</source>
        <translation>键、值投影的参数</translation>
    </message>
    <message>
        <source>replicated on every rank</source>
        <translation>每个 rank 上复制一份</translation>
    </message>
    <message>
        <source>key and value projections</source>
        <translation>键、值投影</translation>
    </message>
    <message>
        <source>key-value heads of the layer kind, fewer than t: each held by t / h_kv ranks</source>
        <translation>该类层的键值头数（少于 t）：每个头由 t / h_kv 个 rank 持有</translation>
    </message>
    <message>
        <source>NCCL channels: 24 over NVLink and NVSwitch, 4 over PCIe</source>
        <translation>NCCL 通道数：NVLink 与 NVSwitch 上 24 个，PCIe 上 4 个</translation>
    </message>
    <message>
        <source>connections each way on the busiest rank: ring and tree (one with two ranks)</source>
        <translation>最繁忙的 rank 每个方向的连接数：环与树（两个 rank 时为 1）</translation>
    </message>
    <message>
        <source>a send (2 MiB) and a receive buffer (LL 0.5 + LL128 4.69 + Simple 4 MiB, to 10 MiB)</source>
        <translation>一个发送缓冲（2 MiB）和一个接收缓冲（LL 0.5 + LL128 4.69 + Simple 4 MiB，向上取整到 10 MiB）</translation>
    </message>
    <message>
        <source>NCCL p2p channels: 32 over NVLink and NVSwitch, 4 over PCIe</source>
        <translation>NCCL 点对点通道数：NVLink 与 NVSwitch 上 32 个，PCIe 上 4 个</translation>
    </message>
    <message>
        <source>NCCL_SHARED_STEPS</source>
        <translation>NCCL_SHARED_STEPS</translation>
    </message>
    <message>
        <source>p2p chunk: 0.5 MiB over NVLink, 0.125 MiB over PCIe</source>
        <translation>点对点分块：NVLink 上 0.5 MiB，PCIe 上 0.125 MiB</translation>
    </message>
    <message>
        <source>ring and tree buffers</source>
        <translation>环与树的缓冲</translation>
    </message>
    <message>
        <source>shared p2p buffers</source>
        <translation>共享的点对点缓冲</translation>
    </message>
    <message>
        <source>tensor-parallel communicator</source>
        <translation>张量并行通信器</translation>
    </message>
    <message>
        <source>pipeline communicator</source>
        <translation>流水线并行通信器</translation>
    </message>
    <message>
        <source>custom all-reduce: signal and buffer (8 MiB + 3,456 B, to 10 MiB), buffer 8 MiB, rank data 8 MiB</source>
        <translation>自定义 all-reduce：信号与缓冲（8 MiB + 3,456 B，向上取整到 10 MiB）、缓冲 8 MiB、rank 数据 8 MiB</translation>
    </message>
    <message>
        <source>another vendor&apos;s collective library, sized by NCCL_BUFFSIZE&apos;s rule</source>
        <translation>其他厂商的集合通信库，按 NCCL_BUFFSIZE 的经验规则估算</translation>
    </message>
    <message>
        <source>another vendor&apos;s collective library (RCCL, HCCL): its buffers were not read; NCCL_BUFFSIZE&apos;s rule</source>
        <translation>其他厂商的集合通信库（RCCL、HCCL）：未读取其缓冲，按 NCCL_BUFFSIZE 的经验规则</translation>
    </message>
    <message>
        <source>the engine&apos;s NCCL communicators over NVLink and NVSwitch</source>
        <translation>引擎经 NVLink 与 NVSwitch 的 NCCL 通信器</translation>
    </message>
    <message>
        <source>the engine&apos;s NCCL communicators over PCIe</source>
        <translation>引擎经 PCIe 的 NCCL 通信器</translation>
    </message>
    <message>
        <source>caching allocator&apos;s segment tails</source>
        <translation>缓存分配器段的尾部余量</translation>
    </message>
    <message>
        <source>the caching allocator&apos;s segments on this rank less the tensors in them</source>
        <translation>本 rank 上缓存分配器的段减去其中的张量</translation>
    </message>
    <message>
        <source>the rotary cos/sin cache</source>
        <translation>旋转位置编码的 cos/sin 缓存</translation>
    </message>
    <message>
        <source>the caching allocator&apos;s segments once this rank&apos;s weight tensors and rotary cache are allocated, in the order the model builds them</source>
        <translation>按模型构建顺序分配完本 rank 的权重张量与旋转缓存之后，缓存分配器持有的段</translation>
    </message>
    <message>
        <source>this rank&apos;s weight tensors, q/k/v, gate/up and each layer&apos;s experts fused</source>
        <translation>本 rank 的权重张量（q/k/v、gate/up 以及每层的专家各自融合）</translation>
    </message>
    <message>
        <source>less</source>
        <translation>减去</translation>
    </message>
    <message>
        <source>the engine measures its weights with the driver&apos;s free memory after emptying the cache: the unused tails of the segments the tensors share count as weights (tensors of 1 to 10 MiB take 20 MiB segments, larger ones round up to 2 MiB, those up to 1 MiB share 2 MiB)</source>
        <translation>引擎在清空缓存后用驱动报告的空闲显存来度量权重：张量所共享的段中未用的尾部也算作权重（1 到 10 MiB 的张量占 20 MiB 的段，更大的向上取整到 2 MiB，1 MiB 以内的共享 2 MiB 的段）</translation>
    </message>
    <message>
        <source>rotary cos/sin cache</source>
        <translation>旋转位置编码 cos/sin 缓存</translation>
    </message>
    <message>
        <source>positions the cache holds: max_position_embeddings</source>
        <translation>缓存容纳的位置数：max_position_embeddings</translation>
    </message>
    <message>
        <source>rotary dimensions: head_dim, or its rotated part (partial_rotary_factor; MLA: qk_rope_head_dim), a cos and a sin for each pair</source>
        <translation>旋转维度：head_dim 或其中被旋转的部分（partial_rotary_factor；MLA 为 qk_rope_head_dim），每对维度一个 cos 和一个 sin</translation>
    </message>
    <message>
        <source>bytes of a cached value: fp32 in SGLang, the model&apos;s dtype in vLLM</source>
        <translation>每个缓存值的字节数：SGLang 为 fp32，vLLM 为模型的数据类型</translation>
    </message>
    <message>
        <source>FlashInfer&apos;s all-reduce fusion buffers: the IPC buffer, its flags, the Lamport buffer</source>
        <translation>FlashInfer 的 all-reduce 融合缓冲区：IPC 缓冲区、其标志位、Lamport 缓冲区</translation>
    </message>
    <message>
        <source>each buffer rounded up to the driver&apos;s recommended multicast granularity</source>
        <translation>每个缓冲区向上取整到驱动推荐的多播粒度</translation>
    </message>
    <message>
        <source>vLLM&apos;s all-reduce fusion on Hopper or Blackwell: FlashInfer rounds each buffer up to the multicast granularity, a driver value taken as 512 MiB (the peers&apos; buffers of a published TP 2 start lie 512 MiB apart), so the three take 1.5 GiB whatever the model</source>
        <translation>vLLM 在 Hopper 或 Blackwell 上的 all-reduce 融合：FlashInfer 把每个缓冲区向上取整到多播粒度，这是驱动给出的值，按 512 MiB 计（一次公开的 TP 2 启动中各对端缓冲区相距 512 MiB），因此三个缓冲区无论模型大小都占 1.5 GiB</translation>
    </message>
    <message>
        <source>vLLM&apos;s all-reduce fusion workspace (compute capability 9.0 or 10.x)</source>
        <translation>vLLM 的 all-reduce 融合工作区（计算能力 9.0 或 10.x）</translation>
    </message>
    <message>
        <source>no all-reduce fusion on this card (vLLM fuses on compute capability 9.0 or 10.x)</source>
        <translation>此卡上没有 all-reduce 融合（vLLM 只在计算能力 9.0 或 10.x 上融合）</translation>
    </message>
    <message>
        <source>the sliding-window layers&apos; own cache</source>
        <translation>滑动窗口层自己的缓存</translation>
    </message>
    <message>
        <source>rotary dimensions of the sliding-window layers, whose RoPE is their own</source>
        <translation>滑动窗口层的旋转维度（这些层有自己的 RoPE）</translation>
    </message>
    <message>
        <source>Mamba layers on this rank</source>
        <translation>此 rank 上的 Mamba 层</translation>
    </message>
    <message>
        <source>Mamba layers keep a fixed-size state per sequence: the causal convolution&apos;s last inputs and one head dim x state size matrix per head (Mamba-1: one state-size row per inner channel)</source>
        <translation>Mamba 层为每条序列保留固定大小的状态：因果卷积最近的输入，以及每个头一个 头维度 x 状态维度 的矩阵（Mamba-1：每个内部通道一行状态维度）</translation>
    </message>
    <message>
        <source>this rank&apos;s share of the weight bytes</source>
        <translation>本 rank 分得的权重字节</translation>
    </message>
    <message>
        <source>weight bytes on this rank before tensor parallelism</source>
        <translation>张量并行切分前本 rank 上的权重字节</translation>
    </message>
    <message>
        <source>weight bytes of all decoder layers, experts excepted</source>
        <translation>全部解码层的权重字节（路由专家除外）</translation>
    </message>
    <message>
        <source>weight bytes of all routed experts</source>
        <translation>全部路由专家的权重字节</translation>
    </message>
    <message>
        <source>weight bytes of the embedding tables</source>
        <translation>嵌入表的权重字节</translation>
    </message>
    <message>
        <source>weight bytes of the lm_head</source>
        <translation>lm_head 的权重字节</translation>
    </message>
    <message>
        <source>weight bytes of the embeddings and the lm_head</source>
        <translation>嵌入表与 lm_head 的权重字节</translation>
    </message>
    <message>
        <source>weight bytes every tensor-parallel rank holds whole: routers, norms, MLA&apos;s down-projections, the sparse-attention indexer</source>
        <translation>每个张量并行 rank 完整保存的权重字节：路由器、归一化层、MLA 的降维投影、稀疏注意力索引器</translation>
    </message>
    <message>
        <source>weight bytes of the key and value projections</source>
        <translation>键、值投影的权重字节</translation>
    </message>
    <message>
        <source>a share of the bytes, not of the parameters: the format&apos;s layers and the unquantised tables and norms each at their own width</source>
        <translation>按字节而非参数计份额：量化格式的层与未量化的嵌入表、归一化层各按其自身宽度计</translation>
    </message>
    <message>
        <source>fixed state (linear attention, Mamba) of one sequence on this rank</source>
        <translation>本 rank 上一条序列的固定状态（线性注意力、Mamba）</translation>
    </message>
    <message>
        <source>fixed state (linear attention, Mamba)</source>
        <translation>固定状态（线性注意力、Mamba）</translation>
    </message>
    <message>
        <source>transformers&apos; own cache for this family (Zamba2HybridDynamicCache) preallocates the conv and SSM states in the model&apos;s dtype</source>
        <translation>transformers 为该系列自带的缓存（Zamba2HybridDynamicCache）以模型的数据类型预先分配卷积状态和 SSM 状态</translation>
    </message>
    <message>
        <source>layers with softmax attention</source>
        <translation>含 softmax 注意力的层</translation>
    </message>
    <message>
        <source>layers with a token mixer</source>
        <translation>含词元混合器的层</translation>
    </message>
    <message>
        <source>layers with an MLP</source>
        <translation>含 MLP 的层</translation>
    </message>
    <message>
        <source>layers with a Mamba block</source>
        <translation>含 Mamba 块的层</translation>
    </message>
    <message>
        <source>layers with Gated DeltaNet</source>
        <translation>含 Gated DeltaNet 的层</translation>
    </message>
    <message>
        <source>Mamba-2 in_proj output width: 2 d_inner + 2 groups x state + heads</source>
        <translation>Mamba-2 in_proj 输出宽度：2 d_inner + 2 × 组数 × 状态维度 + 头数</translation>
    </message>
    <message>
        <source>Mamba&apos;s inner width</source>
        <translation>Mamba 的内部宽度</translation>
    </message>
    <message>
        <source>norm groups of Mamba-2&apos;s gated RMSNorm</source>
        <translation>Mamba-2 门控 RMSNorm 的归一化组数</translation>
    </message>
    <message>
        <source>SSM state size</source>
        <translation>SSM 状态维度</translation>
    </message>
    <message>
        <source>u, delta, z and the scan output</source>
        <translation>u、delta、z 与扫描输出</translation>
    </message>
    <message>
        <source>conv width: 2 x key width + value width</source>
        <translation>卷积宽度：2 × 键宽度 + 值宽度</translation>
    </message>
    <message>
        <source>q and k heads the kernel takes</source>
        <translation>内核接收的 q、k 头数</translation>
    </message>
    <message>
        <source>linear attention key head size</source>
        <translation>线性注意力每个键头的维度</translation>
    </message>
    <message>
        <source>linear attention value heads</source>
        <translation>线性注意力的值头数</translation>
    </message>
    <message>
        <source>linear attention value width: value heads x value head size</source>
        <translation>线性注意力的值宽度：值头数 × 值头维度</translation>
    </message>
    <message>
        <source>columns of a 64-token chunk&apos;s triangle, one row a token</source>
        <translation>每 64 个词元一块的三角矩阵的列数，每个词元一行</translation>
    </message>
    <message>
        <source>in_proj output, which the fused Mamba-2 kernel saves</source>
        <translation>in_proj 输出，由融合的 Mamba-2 内核保存</translation>
    </message>
    <message>
        <source>scan output before the gated norm</source>
        <translation>门控归一化之前的扫描输出</translation>
    </message>
    <message>
        <source>fp32 rstd of each norm group</source>
        <translation>每个归一化组的 fp32 rstd</translation>
    </message>
    <message>
        <source>in_proj output, kept alive by the conv&apos;s saved view</source>
        <translation>in_proj 输出，因卷积保存了它的视图而一直存活</translation>
    </message>
    <message>
        <source>the selective scan&apos;s copies and output</source>
        <translation>选择性扫描的副本与输出</translation>
    </message>
    <message>
        <source>B and C, the scan&apos;s copies</source>
        <translation>B 与 C，扫描保存的副本</translation>
    </message>
    <message>
        <source>fp32 inputs of the dt, B and C norms and their rsqrt</source>
        <translation>dt、B、C 归一化层的 fp32 输入及其 rsqrt</translation>
    </message>
    <message>
        <source>fp32 scan intermediates, per 2,048-token chunk</source>
        <translation>fp32 扫描中间量，每 2,048 个词元一份</translation>
    </message>
    <message>
        <source>in_proj input (the projections train)</source>
        <translation>in_proj 的输入（投影参与训练时）</translation>
    </message>
    <message>
        <source>out_proj input (out_proj trains)</source>
        <translation>out_proj 的输入（out_proj 参与训练时）</translation>
    </message>
    <message>
        <source>conv input, which causal_conv1d saves</source>
        <translation>卷积输入，由 causal_conv1d 保存</translation>
    </message>
    <message>
        <source>q and k after the kernel&apos;s L2 norm</source>
        <translation>经内核 L2 归一化后的 q 与 k</translation>
    </message>
    <message>
        <source>fp32 rstd of q and k</source>
        <translation>q 与 k 的 fp32 rstd</translation>
    </message>
    <message>
        <source>v, the kernel&apos;s contiguous copy</source>
        <translation>v，内核做的连续副本</translation>
    </message>
    <message>
        <source>fp32 decay g after the chunk cumsum</source>
        <translation>分块累加后的 fp32 衰减 g</translation>
    </message>
    <message>
        <source>beta, the sigmoid&apos;s output</source>
        <translation>beta，即 sigmoid 的输出</translation>
    </message>
    <message>
        <source>A: each 64-token chunk&apos;s solved triangle</source>
        <translation>A：每个 64 词元块求解后的三角矩阵</translation>
    </message>
    <message>
        <source>fp32 softplus input (and output, where A_log trains)</source>
        <translation>fp32 softplus 输入（A_log 参与训练时还有输出）</translation>
    </message>
    <message>
        <source>gated norm: its input, gate and outputs</source>
        <translation>门控归一化：其输入、门与输出</translation>
    </message>
    <message>
        <source>gated norm: fp32 rstd per value head</source>
        <translation>门控归一化：每个值头的 fp32 rstd</translation>
    </message>
    <message>
        <source>layers with a dense MLP</source>
        <translation>含稠密 MLP 的层</translation>
    </message>
    <message>
        <source>layers with experts</source>
        <translation>含专家的层</translation>
    </message>
    <message>
        <source>recurrent blocks with an input of their own</source>
        <translation>拥有自己输入的循环块</translation>
    </message>
    <message>
        <source>tokens of a scan chunk (a shorter last chunk is taken at its length)</source>
        <translation>一个扫描块的词元数（较短的最后一块按其实际长度计）</translation>
    </message>
    <message>
        <source>bytes per element of the V_lin-wide tensors the gated norm keeps, summed</source>
        <translation>门控归一化保留的 V_lin 宽张量每元素字节数之和</translation>
    </message>
    <message>
        <source>inputs the trained projections and inner norms keep</source>
        <translation>参与训练的投影与内部归一化层保留的输入</translation>
    </message>
    <message>
        <source>the largest layer, which the recompute rebuilds</source>
        <translation>最大的一层，即重计算时重建的那层</translation>
    </message>
    <message>
        <source>bytes per token the largest layer saves, scores excepted</source>
        <translation>最大一层每个词元保存的字节数（不含注意力分数）</translation>
    </message>
    <message>
        <source>inputs of a trained Mamba-1 block&apos;s x_proj, out_proj, dt_proj and inner norms: 2 d_inner + 2 x the time-step rank + 2 N_ssm</source>
        <translation>参与训练的 Mamba-1 块中 x_proj、out_proj、dt_proj 与内部归一化层的输入：2 d_inner + 2 × 时间步秩 + 2 N_ssm</translation>
    </message>
    <message>
        <source>widths of the dt, B and C norms (the time-step rank + 2 N_ssm) and their three rsqrt</source>
        <translation>dt、B、C 归一化层的宽度（时间步秩 + 2 N_ssm），加上它们的三个 rsqrt</translation>
    </message>
</context>
<context>
    <name>Explanations</name>
    <message>
        <source>The model&apos;s parameters in the format they are stored in: 2 bytes each in fp16/bf16, 4 in fp32, about half a byte at 4 bits plus the scales that tell a quantised value what it stands for. Quantisation libraries keep embeddings, the output layer and norms at 16 bits; PEFT&apos;s QLoRA preparation casts them to fp32.</source>
        <translation>模型参数按其存储格式占用的显存：fp16/bf16 下每个参数 2 字节，fp32 下 4 字节；4 位量化下约半个字节，另加缩放因子，用来表明每个量化值实际代表的数值。量化库会将嵌入层、输出层和归一化层保留为 16 位；PEFT 为 QLoRA 做准备时会把它们转为 fp32。</translation>
    </message>
    <message>
        <source>LoRA freezes the model and trains two thin matrices per adapted layer (rank r): r × (inputs + outputs) parameters, a fraction of a percent of the model.</source>
        <translation>LoRA 冻结模型本身，只为每个被适配的层训练两个细长矩阵（秩为 r）：共 r × (输入维度 + 输出维度) 个参数，不到模型参数量的百分之一。</translation>
    </message>
    <message>
        <source>With 16-bit weights, small updates would round away; the optimizer therefore updates an fp32 copy of every trained parameter and casts it back to 16 bits after each step.</source>
        <translation>如果权重只有 16 位，微小的更新会在舍入中丢失；因此优化器更新的是每个被训练参数的 fp32 副本，并在每一步之后再将其转换回 16 位。</translation>
    </message>
    <message>
        <source>One gradient per trained parameter, produced during backward. They are freed after the optimizer step, unless gradient accumulation keeps them for the next micro-batch.</source>
        <translation>每个被训练的参数对应一个梯度，在反向传播中产生。优化器更新完成后梯度即被释放，除非梯度累积需要把它们保留到下一个微批。</translation>
    </message>
    <message>
        <source>What the optimizer remembers between steps: Adam keeps a running mean and a running variance of each gradient (two values per parameter), SGD with momentum one, plain SGD none; 8-bit optimizers store them in one byte each.</source>
        <translation>优化器在各步之间需要记住的内容：Adam 为每个梯度保存一个滑动均值和一个滑动方差（每个参数两个值），带动量的 SGD 保存一个，普通 SGD 不保存；8 位优化器将每个值存为 1 个字节。</translation>
    </message>
    <message>
        <source>Backward needs the inputs of every matrix multiply, norm and activation function of the forward pass, so they are kept until used. They grow with batch × sequence; eager attention also keeps the sequence × sequence attention probabilities. Checkpointing keeps only each layer&apos;s input and recomputes the rest.</source>
        <translation>反向传播需要用到前向传播中每次矩阵乘法、归一化和激活函数的输入，因此这些输入会一直保留到被使用为止。它们随批大小 × 序列长度增长；eager 注意力还会保存序列长度 × 序列长度的注意力概率。梯度检查点只保存每一层的输入，其余部分在反向传播时重新计算。</translation>
    </message>
    <message>
        <source>The output layer scores every vocabulary entry at every position: batch × sequence × vocabulary values, upcast to fp32 for the loss. With 128k-token vocabularies this is often the largest single tensor; a chunked loss avoids most of it.</source>
        <translation>输出层在每个位置上为词表中的每一项打分：共 批大小 × 序列长度 × 词表大小 个值，并为计算损失而上转为 fp32。当词表有 128k 个词元时，它往往是最大的单个张量；分块计算损失可以省去其中的大部分。</translation>
    </message>
    <message>
        <source>During generation each layer keeps the keys and values of every earlier token so they are not recomputed: 2 × layers × key-value heads × head size per token. Grouped-query attention shares keys and values between heads and shrinks it.</source>
        <translation>生成时，每一层都会保存此前所有词元的键和值，以免重复计算：每个词元占 2 × 层数 × 键值头数 × 头维度。分组查询注意力让多个注意力头共享键和值，从而缩小 KV 缓存。</translation>
    </message>
    <message>
        <source>Short-lived memory: one layer&apos;s intermediate tensors while it runs (prefill), a layer recomputed during backward under checkpointing, or the temporaries of the optimizer step.</source>
        <translation>短时占用的显存：某一层运行时的中间张量（预填充阶段），启用梯度检查点时反向传播中重新计算的那一层，或优化器更新时的临时张量。</translation>
    </message>
    <message>
        <source>ZeRO-3 and FSDP keep only a shard of every layer; before a layer runs its full weights are gathered from all GPUs into this buffer.</source>
        <translation>ZeRO-3 和 FSDP 只保存每一层的一个分片；某一层运行之前，会从所有 GPU 收集其完整权重，放入这个缓冲区。</translation>
    </message>
    <message>
        <source>Memory the process holds before any tensor exists: the CUDA context and the kernels of CUDA, cuBLAS and cuDNN. Lazy module loading (CUDA 11.7+) cut it from about 1.3 GB to a few hundred MB.</source>
        <translation>进程在创建任何张量之前就已占用的显存：CUDA 上下文，以及 CUDA、cuBLAS 和 cuDNN 的内核。延迟模块加载（CUDA 11.7+）将其从约 1.3 GB 降到了几百 MB。</translation>
    </message>
    <message>
        <source>PyTorch&apos;s caching allocator rounds blocks up and keeps freed blocks for reuse, so what it reserves exceeds what tensors use; fragmentation can make large allocations fail while memory looks free. A planning margin: calibrate it against your own runs.</source>
        <translation>PyTorch 的缓存分配器会将内存块向上取整，并保留已释放的块以便复用，因此它预留的显存多于张量实际使用的量；碎片化还可能使大块分配失败，尽管显存看上去仍有空闲。这是一项规划余量：请根据你自己的实际运行结果进行校准。</translation>
    </message>
    <message>
        <source>NCCL, the library GPUs use to exchange gradients and weights, allocates its own buffers outside PyTorch&apos;s allocator once more than one GPU takes part; a serving engine&apos;s own all-reduce buffers are counted here too.</source>
        <translation>NCCL 是 GPU 之间交换梯度和权重所用的库；只要有多于一张 GPU 参与，它就会在 PyTorch 的分配器之外分配自己的缓冲区；推理服务引擎自己的 all-reduce 缓冲区也计在这里。</translation>
    </message>
</context>
<context>
    <name>ExportPage</name>
    <message>
        <source>A4 page, landscape</source>
        <translation>A4 纸，横向</translation>
    </message>
    <message>
        <source>Letter page, landscape</source>
        <translation>Letter 纸，横向</translation>
    </message>
    <message>
        <source>16:9 slide</source>
        <translation>16:9 幻灯片</translation>
    </message>
    <message>
        <source>Document column, 16 cm</source>
        <translation>文档栏宽，16 厘米</translation>
    </message>
</context>
<context>
    <name>Exporter</name>
    <message>
        <source>VRAM Planner estimate</source>
        <translation>VRAM Planner 显存估算</translation>
    </message>
    <message>
        <source>Could not render %1.</source>
        <translation>无法渲染 %1。</translation>
    </message>
</context>
<context>
    <name>Field</name>
    <message>
        <source>Mode</source>
        <translation>模式</translation>
    </message>
    <message>
        <source>what the GPUs do</source>
        <translation>GPU 做什么</translation>
    </message>
    <message>
        <source>Inference</source>
        <translation>推理</translation>
    </message>
    <message>
        <source>Full training</source>
        <translation>全量训练</translation>
    </message>
    <message>
        <source>LoRA</source>
        <translation>LoRA</translation>
    </message>
    <message>
        <source>QLoRA</source>
        <translation>QLoRA</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <source>weight format, by bits per weight</source>
        <translation>权重格式（按每个权重的位数）</translation>
    </message>
    <message>
        <source>the mode and the checkpoint</source>
        <translation>模式和检查点</translation>
    </message>
    <message>
        <source>Group size</source>
        <translation>分组大小</translation>
    </message>
    <message>
        <source>GPTQ/AWQ quantisation group size</source>
        <translation>GPTQ/AWQ 量化分组大小</translation>
    </message>
    <message>
        <source>Quantise embeddings too</source>
        <translation>嵌入层也量化</translation>
    </message>
    <message>
        <source>quantise the embeddings and lm_head as well; libraries keep them at 16 bits</source>
        <translation>同时量化嵌入层和 lm_head；各库默认保持 16 位</translation>
    </message>
    <message>
        <source>Training regime</source>
        <translation>训练精度方案</translation>
    </message>
    <message>
        <source>which copies of the weights, gradients and optimizer states are kept, in which dtype</source>
        <translation>保留哪些权重、梯度和优化器状态副本，以及各自的数据类型</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>optimizer, by the states it keeps per parameter</source>
        <translation>优化器，按每个参数保留的状态区分</translation>
    </message>
    <message>
        <source>Optimizer step</source>
        <translation>优化器步骤</translation>
    </message>
    <message>
        <source>the optimizer step&apos;s temporaries; foreach keeps one full-size copy</source>
        <translation>优化器步骤的临时张量；foreach 保留一份全尺寸副本</translation>
    </message>
    <message>
        <source>auto</source>
        <translation>自动</translation>
    </message>
    <message>
        <source>foreach (one full-size temporary)</source>
        <translation>foreach（一个完整大小的临时张量）</translation>
    </message>
    <message>
        <source>fused</source>
        <translation>fused（融合）</translation>
    </message>
    <message>
        <source>per-parameter loop</source>
        <translation>逐参数循环</translation>
    </message>
    <message>
        <source>Batch size</source>
        <translation>批大小</translation>
    </message>
    <message>
        <source>micro-batch per GPU</source>
        <translation>每 GPU 的微批大小</translation>
    </message>
    <message>
        <source>tokens</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>Sequence length</source>
        <translation>序列长度</translation>
    </message>
    <message>
        <source>sequence length / context in tokens</source>
        <translation>序列长度 / 上下文（词元数）</translation>
    </message>
    <message>
        <source>Gradient accumulation</source>
        <translation>梯度累积</translation>
    </message>
    <message>
        <source>gradient accumulation steps</source>
        <translation>梯度累积步数</translation>
    </message>
    <message>
        <source>Checkpointing</source>
        <translation>梯度检查点</translation>
    </message>
    <message>
        <source>activation checkpointing; selective recomputes attention</source>
        <translation>激活检查点；selective 只重算注意力</translation>
    </message>
    <message>
        <source>the training stack</source>
        <translation>训练软件栈</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>selective</source>
        <translation>选择性</translation>
    </message>
    <message>
        <source>full</source>
        <translation>完全</translation>
    </message>
    <message>
        <source>Training stack</source>
        <translation>训练框架</translation>
    </message>
    <message>
        <source>the software that runs the training; it decides adapter dtypes, the kbit upcast, defaults and saved tensors</source>
        <translation>运行训练的软件；它决定适配器的数据类型、k 位上转、默认值和保存的张量</translation>
    </message>
    <message>
        <source>bitsandbytes</source>
        <translation>bitsandbytes</translation>
    </message>
    <message>
        <source>0.43.2 or later</source>
        <translation>0.43.2 及更高版本</translation>
    </message>
    <message>
        <source>0.43.1 or earlier (keeps each 4-bit layer&apos;s input)</source>
        <translation>0.43.1 及更早版本（保留每个 4 位层的输入）</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>attention kernel; eager stores the s x s scores</source>
        <translation>注意力内核；eager 会保存 s × s 的分数矩阵</translation>
    </message>
    <message>
        <source>eager (stores s² scores)</source>
        <translation>eager（存储 s² 个注意力分数）</translation>
    </message>
    <message>
        <source>SDPA</source>
        <translation>SDPA</translation>
    </message>
    <message>
        <source>FlashAttention-2</source>
        <translation>FlashAttention-2</translation>
    </message>
    <message>
        <source>LoRA rank</source>
        <translation>LoRA 秩</translation>
    </message>
    <message>
        <source>LoRA rank r</source>
        <translation>LoRA 秩 r</translation>
    </message>
    <message>
        <source>LoRA alpha</source>
        <translation>LoRA alpha</translation>
    </message>
    <message>
        <source>LoRA alpha (scales the update; no memory effect)</source>
        <translation>LoRA alpha（缩放更新量，不影响显存）</translation>
    </message>
    <message>
        <source>LoRA targets</source>
        <translation>LoRA 目标模块</translation>
    </message>
    <message>
        <source>the projections that get adapters: all, attention, or a list</source>
        <translation>加适配器的投影层：all、attention 或列表</translation>
    </message>
    <message>
        <source>LoRA dropout</source>
        <translation>LoRA dropout</translation>
    </message>
    <message>
        <source>dropout on the adapters&apos; input: each adapter then keeps its own copy of the input and a mask</source>
        <translation>适配器输入上的 dropout：每个适配器因此各自保留一份输入副本和一个掩码</translation>
    </message>
    <message>
        <source>KV cache format</source>
        <translation>KV 缓存格式</translation>
    </message>
    <message>
        <source>the activation dtype</source>
        <translation>激活的数据类型</translation>
    </message>
    <message>
        <source>Logits</source>
        <translation>Logits</translation>
    </message>
    <message>
        <source>how the loss (or generate) sees the logits</source>
        <translation>损失函数（或 generate）如何处理 logits</translation>
    </message>
    <message>
        <source>fp32 upcast (Hugging Face Trainer)</source>
        <translation>上转为 fp32（Hugging Face Trainer）</translation>
    </message>
    <message>
        <source>activation dtype</source>
        <translation>激活值数据类型</translation>
    </message>
    <message>
        <source>chunked loss</source>
        <translation>分块计算损失</translation>
    </message>
    <message>
        <source>last token only (generate)</source>
        <translation>仅最后一个词元（generate）</translation>
    </message>
    <message>
        <source>Serving memory share</source>
        <translation>推理服务显存占比</translation>
    </message>
    <message>
        <source>vLLM gpu_memory_utilization: the share of each GPU that weights, activations and the KV cache may use together; the KV-cache budget is what remains</source>
        <translation>vLLM gpu_memory_utilization：权重、激活值和 KV 缓存合计可使用的每张 GPU 显存占比；其余部分即 KV 缓存预算</translation>
    </message>
    <message>
        <source>Serving engine</source>
        <translation>推理服务引擎</translation>
    </message>
    <message>
        <source>Transformers generate()</source>
        <translation>Transformers generate()</translation>
    </message>
    <message>
        <source>vLLM (start-up profile)</source>
        <translation>vLLM（启动时的显存剖析）</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>GPUs in the run: tp x pp x data parallel</source>
        <translation>本次运行的 GPU 数：tp × pp × 数据并行</translation>
    </message>
    <message>
        <source>ZeRO stage</source>
        <translation>ZeRO 阶段</translation>
    </message>
    <message>
        <source>ZeRO / FSDP stage for training: what the data-parallel GPUs shard</source>
        <translation>训练用的 ZeRO / FSDP 阶段：数据并行的 GPU 切分哪些内容</translation>
    </message>
    <message>
        <source>0 (data parallel)</source>
        <translation>0（数据并行）</translation>
    </message>
    <message>
        <source>1 (optimizer states)</source>
        <translation>1（优化器状态）</translation>
    </message>
    <message>
        <source>2 (+ gradients)</source>
        <translation>2（+ 梯度）</translation>
    </message>
    <message>
        <source>3 (+ weights, FSDP full shard)</source>
        <translation>3（+ 权重，FSDP 完全分片）</translation>
    </message>
    <message>
        <source>Tensor parallel</source>
        <translation>张量并行</translation>
    </message>
    <message>
        <source>tensor-parallel degree</source>
        <translation>张量并行度</translation>
    </message>
    <message>
        <source>Pipeline stages</source>
        <translation>流水线阶段数</translation>
    </message>
    <message>
        <source>pipeline-parallel stages</source>
        <translation>流水线并行阶段数</translation>
    </message>
    <message>
        <source>Expert parallel</source>
        <translation>专家并行</translation>
    </message>
    <message>
        <source>expert-parallel degree for mixture-of-experts models</source>
        <translation>混合专家模型的专家并行度</translation>
    </message>
    <message>
        <source>Sequence parallel</source>
        <translation>序列并行</translation>
    </message>
    <message>
        <source>sequence parallelism (needs tensor parallel &gt; 1)</source>
        <translation>序列并行（需要张量并行 &gt; 1）</translation>
    </message>
    <message>
        <source>Interleaved stages</source>
        <translation>交错虚拟阶段</translation>
    </message>
    <message>
        <source>virtual pipeline stages per GPU (1: plain 1F1B)</source>
        <translation>每 GPU 的虚拟流水线阶段数（1：普通 1F1B）</translation>
    </message>
    <message>
        <source>Offload</source>
        <translation>卸载</translation>
    </message>
    <message>
        <source>what ZeRO-Offload / ZeRO-Infinity move to host memory</source>
        <translation>ZeRO-Offload / ZeRO-Infinity 移到主机内存的内容</translation>
    </message>
    <message>
        <source>optimizer states (ZeRO-Offload)</source>
        <translation>优化器状态（ZeRO-Offload）</translation>
    </message>
    <message>
        <source>optimizer states and parameters (ZeRO-Infinity)</source>
        <translation>优化器状态和参数（ZeRO-Infinity）</translation>
    </message>
    <message>
        <source>GPUs per node</source>
        <translation>每节点 GPU 数</translation>
    </message>
    <message>
        <source>Hybrid sharding</source>
        <translation>混合切分</translation>
    </message>
    <message>
        <source>shard ZeRO/FSDP states within a node, replicate across nodes</source>
        <translation>在节点内切分 ZeRO/FSDP 状态，跨节点复制</translation>
    </message>
    <message>
        <source>Training tokens</source>
        <translation>训练词元数</translation>
    </message>
    <message>
        <source>training token budget for time and cost (e.g. 1e9, 300B)</source>
        <translation>用于估算时间和成本的训练词元总量（如 1e9、300B）</translation>
    </message>
    <message>
        <source>MFU</source>
        <translation>MFU</translation>
    </message>
    <message>
        <source>Price per GPU-hour</source>
        <translation>每 GPU 小时价格</translation>
    </message>
    <message>
        <source>price per GPU-hour for cost (0: none)</source>
        <translation>用于估算成本的每 GPU 小时价格（0：不计算）</translation>
    </message>
    <message>
        <source>GB/s</source>
        <translation>GB/s</translation>
    </message>
    <message>
        <source>Inter-node bandwidth</source>
        <translation>节点间带宽</translation>
    </message>
    <message>
        <source>per-GPU bandwidth between nodes, GB/s (50: 400 Gb/s InfiniBand)</source>
        <translation>节点间每 GPU 带宽，GB/s（50：400 Gb/s InfiniBand）</translation>
    </message>
    <message>
        <source>Focus GPU</source>
        <translation>关注的 GPU</translation>
    </message>
    <message>
        <source>the GPU to focus on: its fit, time and cost (see &apos;vramplanner-cli gpus&apos;)</source>
        <translation>重点查看的 GPU：能否装下、时间和成本（见 &apos;vramplanner-cli gpus&apos;）</translation>
    </message>
    <message>
        <source>MiB</source>
        <translation>MiB</translation>
    </message>
    <message>
        <source>CUDA context</source>
        <translation>CUDA 上下文</translation>
    </message>
    <message>
        <source>CUDA context per GPU in MiB</source>
        <translation>每 GPU 的 CUDA 上下文，单位 MiB</translation>
    </message>
    <message>
        <source>the module loading</source>
        <translation>模块加载方式</translation>
    </message>
    <message>
        <source>CUDA module loading</source>
        <translation>CUDA 模块加载</translation>
    </message>
    <message>
        <source>CUDA module loading; lazy since CUDA 11.7, eager before</source>
        <translation>CUDA 模块加载方式；CUDA 11.7 起为 lazy，之前为 eager</translation>
    </message>
    <message>
        <source>lazy (CUDA ≥ 11.7)</source>
        <translation>延迟加载（CUDA ≥ 11.7）</translation>
    </message>
    <message>
        <source>eager (older stacks)</source>
        <translation>立即加载（旧版软件栈）</translation>
    </message>
    <message>
        <source>Reserve margin</source>
        <translation>预留余量</translation>
    </message>
    <message>
        <source>allocator reserve / fragmentation margin, in % of tensor memory</source>
        <translation>分配器预留 / 碎片余量，占张量显存的百分比</translation>
    </message>
    <message>
        <source>fp32 (everything 32-bit)</source>
        <translation>fp32（全部 32 位）</translation>
    </message>
    <message>
        <source>PyTorch AMP (fp32 params + autocast)</source>
        <translation>PyTorch AMP（fp32 参数 + autocast）</translation>
    </message>
    <message>
        <source>16-bit weights + fp32 master (ZeRO paper)</source>
        <translation>16 位权重 + fp32 主权重（ZeRO 论文）</translation>
    </message>
    <message>
        <source>DeepSpeed accounting (+ fp32 gradient buffer)</source>
        <translation>DeepSpeed 计法（+ fp32 梯度缓冲区）</translation>
    </message>
    <message>
        <source>pure bf16 (weights, grads, states)</source>
        <translation>纯 bf16（权重、梯度、状态）</translation>
    </message>
    <message>
        <source>Images per sequence</source>
        <translation>每条序列的图像数</translation>
    </message>
    <message>
        <source>images in each sequence of a multimodal model; each adds the model&apos;s image tokens to the context</source>
        <translation>多模态模型每条序列中的图像数；每张图像会把模型的图像词元加入上下文</translation>
    </message>
    <message>
        <source>Load the MTP layers</source>
        <translation>加载 MTP 层</translation>
    </message>
    <message>
        <source>load the checkpoint&apos;s multi-token-prediction layers for speculative decoding (DeepSeek-V3, GLM-4.5); transformers skips them</source>
        <translation>加载检查点中的多词元预测层用于推测解码（DeepSeek-V3、GLM-4.5）；transformers 会跳过它们</translation>
    </message>
    <message>
        <source>llama.cpp (llama-server, llama-cli)</source>
        <translation>llama.cpp（llama-server、llama-cli）</translation>
    </message>
    <message>
        <source>layers</source>
        <translation>层</translation>
    </message>
    <message>
        <source>GPU layers</source>
        <translation>GPU 层数</translation>
    </message>
    <message>
        <source>all layers and the output layer</source>
        <translation>全部层与输出层</translation>
    </message>
    <message>
        <source>Micro-batch (n_ubatch)</source>
        <translation>微批次（n_ubatch）</translation>
    </message>
    <message>
        <source>llama.cpp -ub: tokens one compute pass takes; the compute buffer is reserved for it</source>
        <translation>llama.cpp -ub：一次计算处理的词元数；计算缓冲区按它预留</translation>
    </message>
    <message>
        <source>KV cache in host memory</source>
        <translation>KV 缓存放在主机内存</translation>
    </message>
    <message>
        <source>llama.cpp --no-kv-offload: every layer&apos;s KV cache and attention stay on the CPU</source>
        <translation>llama.cpp --no-kv-offload：每层的 KV 缓存与注意力计算都留在 CPU 上</translation>
    </message>
    <message>
        <source>Experts on the CPU</source>
        <translation>放在 CPU 上的专家</translation>
    </message>
    <message>
        <source>llama.cpp --n-cpu-moe: the routed experts of the first N layers stay in host memory and run on the CPU; attention, shared experts and the KV cache stay on the GPU</source>
        <translation>llama.cpp --n-cpu-moe：前 N 层的路由专家留在主机内存并在 CPU 上运行；注意力、共享专家与 KV 缓存仍在 GPU 上</translation>
    </message>
    <message>
        <source>Host memory bandwidth</source>
        <translation>主机内存带宽</translation>
    </message>
    <message>
        <source>what the CPU reads per second when llama.cpp runs layers or experts there, GB/s (89.6: dual-channel DDR5-5600)</source>
        <translation>llama.cpp 在 CPU 上运行层或专家时 CPU 每秒读取的数据量，GB/s（89.6：双通道 DDR5-5600）</translation>
    </message>
    <message>
        <source>Tensor split</source>
        <translation>张量切分</translation>
    </message>
    <message>
        <source>GiB</source>
        <translation>GiB</translation>
    </message>
    <message>
        <source>Host memory</source>
        <translation>主机内存</translation>
    </message>
    <message>
        <source>the machine&apos;s RAM in GiB, to check what stays beside the GPUs against (0: not checked)</source>
        <translation>本机内存（GiB），用来核对留在 GPU 之外的部分（0：不核对）</translation>
    </message>
    <message>
        <source>Beams or samples</source>
        <translation>束数或采样数</translation>
    </message>
    <message>
        <source>sequences generated from each prompt: beam search&apos;s beams or n &gt; 1 samples; each keeps its own KV cache</source>
        <translation>每个提示生成的序列数：束搜索的束数，或 n &gt; 1 的采样数；每个序列各有自己的 KV 缓存</translation>
    </message>
    <message>
        <source>Mixed GPUs</source>
        <translation>混合 GPU</translation>
    </message>
    <message>
        <source>a mixed set of catalog GPUs in split order, e.g. rtx-4090,rtx-3090; sets the GPU count and fits each GPU against its own memory; empty: GPUs of one kind</source>
        <translation>按切分顺序列出的一组不同型号的目录 GPU，例如 rtx-4090,rtx-3090；它决定 GPU 数量，并按每块 GPU 自己的显存检查是否放得下；留空：同一型号的 GPU</translation>
    </message>
    <message>
        <source>requests/s</source>
        <translation>请求/秒</translation>
    </message>
    <message>
        <source>Target request rate</source>
        <translation>目标请求速率</translation>
    </message>
    <message>
        <source>requests per second to serve: how many GPUs that takes (0: not asked)</source>
        <translation>需要服务的每秒请求数：由此算出需要多少 GPU（0：不计算）</translation>
    </message>
    <message>
        <source>Output tokens per request</source>
        <translation>每个请求的输出词元数</translation>
    </message>
    <message>
        <source>tokens each request generates; its prompt is the rest of the context</source>
        <translation>每个请求生成的词元数；上下文中其余部分是它的提示</translation>
    </message>
    <message>
        <source>Draft model</source>
        <translation>草稿模型</translation>
    </message>
    <message>
        <source>a smaller model that drafts tokens for speculative decoding: its weights and KV cache come on top (a preset id, see &apos;vramplanner-cli models&apos;); empty: none</source>
        <translation>为投机解码起草词元的较小模型：它的权重和 KV 缓存另外计入（预设 id，见 &apos;vramplanner-cli models&apos;）；留空：无</translation>
    </message>
    <message>
        <source>CPU offload</source>
        <translation>CPU 卸载</translation>
    </message>
    <message>
        <source>vLLM --cpu-offload-gb: GiB of each GPU&apos;s decoder-layer weights kept in pinned host memory and read over the host link at every step</source>
        <translation>vLLM --cpu-offload-gb：每块 GPU 的解码器层权重中有这么多 GiB 留在锁页主机内存中，每步都经主机链路读取</translation>
    </message>
    <message>
        <source>Host link bandwidth</source>
        <translation>主机链路带宽</translation>
    </message>
    <message>
        <source>what crosses between host memory and a GPU per second, GB/s, for offloaded weights (the default: PCIe 4.0 x16 in practice)</source>
        <translation>主机内存与 GPU 之间每秒能传输的数据量（GB/s），用于被卸载的权重（默认值：PCIe 4.0 x16 的实际速率）</translation>
    </message>
    <message>
        <source>Tokens per step</source>
        <translation>每步词元数</translation>
    </message>
    <message>
        <source>Sequences at once</source>
        <translation>同时处理的序列数</translation>
    </message>
    <message>
        <source>the stack keeps the adapters in fp32, with no master copy; the regime only chooses whether autocast runs</source>
        <translation>该训练栈将适配器保持为 fp32，没有主副本；训练精度方案只决定是否启用 autocast</translation>
    </message>
    <message>
        <source>x86-64 with AVX2 (repacks Q4_0, Q4_K, IQ4_NL, MXFP4)</source>
        <translation>x86-64，支持 AVX2（重排 Q4_0、Q4_K、IQ4_NL、MXFP4）</translation>
    </message>
    <message>
        <source>x86-64 with AMX (Xeon 4th gen. and later)</source>
        <translation>x86-64，支持 AMX（第四代至强及更新）</translation>
    </message>
    <message>
        <source>Arm64 with dot product and int8 matrix multiply</source>
        <translation>Arm64，支持点积与 int8 矩阵乘法指令</translation>
    </message>
    <message>
        <source>no repacking (--no-repack, other CPUs)</source>
        <translation>不重排（--no-repack，或其他 CPU）</translation>
    </message>
    <message>
        <source>Host CPU</source>
        <translation>主机 CPU</translation>
    </message>
    <message>
        <source>the CPU that runs llama.cpp&apos;s host layers: its backend copies the weights it has faster kernels for into a second buffer (CPU_REPACK, AMX) beside the mapped file</source>
        <translation>运行 llama.cpp 主机侧各层的 CPU：其后端会把有更快内核的权重复制到映射文件之外的第二个缓冲区（CPU_REPACK、AMX）</translation>
    </message>
    <message>
        <source>V cache format</source>
        <translation>V 缓存格式</translation>
    </message>
    <message>
        <source>llama.cpp -ctv: the V cache&apos;s element format where it differs from the K cache&apos;s (-ctk, the KV cache format); a quantised V cache needs flash attention</source>
        <translation>llama.cpp -ctv：V 缓存与 K 缓存（-ctk，即 KV 缓存格式）不同时的元素格式；量化的 V 缓存需要 Flash Attention</translation>
    </message>
    <message>
        <source>the KV cache format</source>
        <translation>同 KV 缓存格式</translation>
    </message>
    <message>
        <source>the KV cache&apos;s element format (llama.cpp: -ctk, and -ctv unless the V cache format is set)</source>
        <translation>KV 缓存的元素格式（llama.cpp：-ctk；未设置 V 缓存格式时也是 -ctv）</translation>
    </message>
    <message>
        <source>llama.cpp --tensor-split: each GPU&apos;s share of the layers in split order, e.g. 24,12, or 0,1 for none on the first; empty: equal shares</source>
        <translation>llama.cpp --tensor-split：按切分顺序给出每张 GPU 分得的层的比例，例如 24,12；0,1 表示第一张不放层；留空：均分</translation>
    </message>
    <message>
        <source>layers on the GPUs, the rest in host memory. llama.cpp -ngl: the output layer first, then the last N - 1 decoder layers; the rest run on the CPU. generate(): device_map with CPU offload, the first N decoder layers, more than the model&apos;s also the output layer; the rest are copied to the GPU as they run</source>
        <translation>放在 GPU 上的层数，其余在主机内存中。llama.cpp -ngl：先放输出层，再放最后 N - 1 个解码器层，其余在 CPU 上运行。generate()：device_map 开启 CPU 卸载，前 N 个解码器层在 GPU，超过模型层数时输出层也在 GPU，其余层运行时才复制到 GPU</translation>
    </message>
    <message>
        <source>Layers with an unquantised KV cache</source>
        <translation>KV 缓存不量化的层</translation>
    </message>
    <message>
        <source>vLLM --kv-cache-dtype-skip-layers: layers whose KV cache keeps the model&apos;s dtype while the others use the KV cache format, by index (0,1,47) or sliding_window for every windowed layer; empty: none</source>
        <translation>vLLM --kv-cache-dtype-skip-layers：这些层的 KV 缓存保持模型的数据类型，其余层用 KV 缓存格式；按层编号（0,1,47）给出，或写 sliding_window 表示所有滑动窗口层；留空：无</translation>
    </message>
    <message>
        <source>bitsandbytes up to 0.43.1 kept the input of every 4-bit layer for the backward pass; legacy is --versions bitsandbytes=0.43.1</source>
        <translation>bitsandbytes 0.43.1 及以前为反向传播保留每个 4 位层的输入；legacy 即 --versions bitsandbytes=0.43.1</translation>
    </message>
    <message>
        <source>Library versions</source>
        <translation>库版本</translation>
    </message>
    <message>
        <source>PyTorch version</source>
        <translation>PyTorch 版本</translation>
    </message>
    <message>
        <source>the PyTorch release, e.g. 2.3: --versions torch=2.3</source>
        <translation>PyTorch 版本，例如 2.3：即 --versions torch=2.3</translation>
    </message>
    <message>
        <source>fp32 from the model, shifted copy (transformers ≤ 4.45)</source>
        <translation>模型输出 fp32，再移位复制一份（transformers ≤ 4.45）</translation>
    </message>
    <message>
        <source>Liger kernels</source>
        <translation>Liger 内核</translation>
    </message>
    <message>
        <source>use_liger_kernel=True: the output layer and the loss fused in chunks (--logits fused-linear), RMSNorm keeping its input only, SwiGLU recomputing the activation</source>
        <translation>use_liger_kernel=True：输出层与损失分块融合（--logits fused-linear），RMSNorm 只保留输入，SwiGLU 反向时重算激活</translation>
    </message>
    <message>
        <source>output layer and loss fused in chunks (Liger)</source>
        <translation>输出层与损失分块融合（Liger）</translation>
    </message>
    <message>
        <source>full, layer inputs in host memory (Unsloth, torchtune offloading)</source>
        <translation>完全重算，各层输入放在主机内存（Unsloth、torchtune 卸载）</translation>
    </message>
    <message>
        <source>Unsloth</source>
        <translation>Unsloth</translation>
    </message>
    <message>
        <source>torch.compile</source>
        <translation>torch.compile</translation>
    </message>
    <message>
        <source>compiled chunked loss (torchtune)</source>
        <translation>编译的分块损失（torchtune）</translation>
    </message>
    <message>
        <source>compiled layers recompute their pointwise work in backward: each norm keeps its input, not an fp32 copy, the gated MLP its gate and up, not act(gate); NF4 weights dequantise in one kernel; torchtune also compiles its loss chunk</source>
        <translation>编译后的层在反向传播中重算逐元素运算：每个归一化层只保留其输入而非 fp32 副本，门控 MLP 保留 gate 和 up 而非 act(gate)；NF4 权重在一个内核中反量化；torchtune 还会编译其分块损失</translation>
    </message>
    <message>
        <source>use_gradient_checkpointing=&quot;unsloth&quot;: each layer&apos;s input waits in host memory (--checkpointing offloaded); with LoRA dropout 0 its own LoRA layers keep only their input (the MLP also gate and up) and its RMSNorm only its input</source>
        <translation>use_gradient_checkpointing=&quot;unsloth&quot;：每层的输入放在主机内存中（--checkpointing offloaded）；LoRA dropout 为 0 时，其自有的 LoRA 层只保留输入（MLP 另保留 gate 和 up），其 RMSNorm 只保留输入</translation>
    </message>
    <message>
        <source>SGLang memory fraction</source>
        <translation>SGLang 显存比例</translation>
    </message>
    <message>
        <source>SGLang --mem-fraction-static: the share of the memory free before the weights load that the weights and the KV pool take; the rest is left for activations and CUDA graphs</source>
        <translation>SGLang --mem-fraction-static：加载权重前空闲显存中，由权重和 KV 池占用的比例；其余留给激活值和 CUDA graph</translation>
    </message>
    <message>
        <source>SGLang&apos;s rule for each GPU</source>
        <translation>SGLang 按每种 GPU 的规则</translation>
    </message>
    <message>
        <source>SGLang (token pool of mem_fraction_static)</source>
        <translation>SGLang（按 mem_fraction_static 的词元池）</translation>
    </message>
    <message>
        <source>Engine version</source>
        <translation>引擎版本</translation>
    </message>
    <message>
        <source>the vLLM release (0.92 from 0.21, 0.9 before and elsewhere)</source>
        <translation>vLLM 版本（0.21 起为 0.92，之前及其他引擎为 0.9）</translation>
    </message>
    <message>
        <source>KV cache size</source>
        <translation>KV 缓存大小</translation>
    </message>
    <message>
        <source>vLLM --kv-cache-memory-bytes: each GPU&apos;s KV cache set directly, in GiB; the serving memory share is then ignored</source>
        <translation>vLLM --kv-cache-memory-bytes：直接设定每个 GPU 的 KV 缓存大小（GiB）；此时忽略推理服务显存占比</translation>
    </message>
    <message>
        <source>the serving memory share</source>
        <translation>推理服务显存占比</translation>
    </message>
    <message>
        <source>TensorRT-LLM KV share of free memory</source>
        <translation>TensorRT-LLM KV 占空闲显存的比例</translation>
    </message>
    <message>
        <source>TensorRT-LLM KvCacheConfig.free_gpu_memory_fraction: the share of the memory left free after the weights and the profiled forward that the KV pool takes</source>
        <translation>TensorRT-LLM KvCacheConfig.free_gpu_memory_fraction：权重与剖析前向之后剩余空闲显存中分给 KV 池的比例</translation>
    </message>
    <message>
        <source>the tokens of one step, profiled at start-up: vLLM --max-num-batched-tokens, TensorRT-LLM --max_num_tokens</source>
        <translation>每一步的词元数，启动时据此做性能剖析：vLLM --max-num-batched-tokens，TensorRT-LLM --max_num_tokens</translation>
    </message>
    <message>
        <source>the sequences decoded together: vLLM --max-num-seqs (also the sampler warm-up&apos;s rows), TensorRT-LLM --max_batch_size</source>
        <translation>同时解码的序列数：vLLM --max-num-seqs（也是采样器预热的行数），TensorRT-LLM --max_batch_size</translation>
    </message>
    <message>
        <source>TensorRT-LLM (KV pool of the free memory)</source>
        <translation>TensorRT-LLM（KV 池取自空闲显存）</translation>
    </message>
    <message>
        <source>e.g. 0,1,47 or sliding_window</source>
        <translation>例如 0,1,47 或 sliding_window</translation>
    </message>
    <message>
        <source>KV offloading</source>
        <translation>KV 卸载</translation>
    </message>
    <message>
        <source>vLLM --kv-offloading-size: GiB of pinned host memory for KV blocks moved off the GPUs, in total over the tensor- and pipeline-parallel ranks (each takes its share); the GPUs&apos; KV pool is unchanged</source>
        <translation>vLLM --kv-offloading-size：为从 GPU 移出的 KV 块分配的锁页主机内存（GiB），为张量并行与流水线并行各 rank 的总和（每个 rank 分摊一份）；GPU 上的 KV 池不变</translation>
    </message>
    <message>
        <source>the releases the run uses, e.g. transformers=4.44,torch=2.3 (transformers, peft, accelerate, bitsandbytes, torch, torchtune, litgpt, vllm, sglang); each sets the defaults its library had then; unset: current releases</source>
        <translation>运行所用的各库版本，例如 transformers=4.44,torch=2.3（transformers、peft、accelerate、bitsandbytes、torch、torchtune、litgpt、vllm、sglang）；每个版本设定该库当时的默认值；不设：当前版本</translation>
    </message>
    <message>
        <source>generate() runs the scenario&apos;s batch; vLLM sizes its KV cache after profiling one forward of max_num_batched_tokens tokens and a sampler warm-up of max_num_seqs rows; llama.cpp keeps one KV stream per sequence and a compute buffer for one micro-batch; SGLang gives its token pool mem_fraction_static of the free memory, less the weights; TensorRT-LLM gives its KV pool free_gpu_memory_fraction of what its profiled forward leaves free</source>
        <translation>generate() 运行场景设定的批次；vLLM 先剖析一次 max_num_batched_tokens 个词元的前向和 max_num_seqs 行的采样器预热，再确定 KV 缓存大小；llama.cpp 为每个序列保留一个 KV 流，并为一个微批次保留计算缓冲区；SGLang 的词元池取空闲显存的 mem_fraction_static 减去权重；TensorRT-LLM 的 KV 池取剖析前向之后剩余空闲显存的 free_gpu_memory_fraction</translation>
    </message>
    <message>
        <source>TensorRT-LLM&apos;s KvCacheConfig</source>
        <translation>TensorRT-LLM 的 KvCacheConfig</translation>
    </message>
    <message>
        <source>s</source>
        <translation>秒</translation>
    </message>
    <message>
        <source>Time to first token target</source>
        <translation>首词元时间目标</translation>
    </message>
    <message>
        <source>Time per output token target</source>
        <translation>每输出词元时间目标</translation>
    </message>
    <message>
        <source>model FLOPs utilisation assumed for time: training steps, a prompt&apos;s prefill</source>
        <translation>计算时间所假定的模型 FLOPs 利用率：训练步、提示的预填充</translation>
    </message>
    <message>
        <source>Decode bandwidth share</source>
        <translation>解码带宽占比</translation>
    </message>
    <message>
        <source>share of the memory bandwidth a decode step achieves (1: the roofline, a ceiling; published engine runs reach 0.37-0.87 at one sequence, see the README&apos;s time error table)</source>
        <translation>一步解码实际达到的显存带宽占比（1：屋顶线，是上限；已发表的引擎实测在单序列时为 0.37-0.87，见 README 的时间误差表）</translation>
    </message>
    <message>
        <source>mean seconds to a request&apos;s first token that the serving plan (Deploy, Plan for Me) must meet (0: none)</source>
        <translation>服务方案（部署页“为我规划”）须满足的请求首个词元平均用时，秒（0：不设）</translation>
    </message>
    <message>
        <source>mean seconds between a request&apos;s output tokens that the serving plan (Deploy, Plan for Me) must meet (0: none)</source>
        <translation>服务方案（部署页“为我规划”）须满足的相邻输出词元平均间隔，秒（0：不设）</translation>
    </message>
    <message>
        <source>the serving engine, its release and the GPU</source>
        <translation>推理服务引擎、其版本与 GPU</translation>
    </message>
    <message>
        <source>CUDA-graph estimate</source>
        <translation>CUDA 图估计</translation>
    </message>
    <message>
        <source>vLLM 0.21 and later: the CUDA-graph memory vLLM estimates on the GPU at start-up and takes from the KV cache (its log: &apos;Estimated CUDA graph memory: X GiB total&apos;), in GiB; unset, not planned</source>
        <translation>vLLM 0.21 及以后：vLLM 启动时在 GPU 上估计并从 KV 缓存中扣除的 CUDA 图显存（其日志：&apos;Estimated CUDA graph memory: X GiB total&apos;），单位 GiB；不设置则不计入规划</translation>
    </message>
    <message>
        <source>not planned</source>
        <translation>不计入规划</translation>
    </message>
    <message>
        <source>the serving engine&apos;s release, e.g. 0.8: --versions vllm=0.8 under vLLM; it sets the defaults the engine had then (vLLM&apos;s gpu_memory_utilization, 0.9 before 0.21, its batch defaults and KV formats; SGLang&apos;s mem_fraction_static rule; TensorRT-LLM&apos;s block rounding and all-reduce workspace)</source>
        <translation>推理服务引擎的版本，例如 0.8：在 vLLM 下即 --versions vllm=0.8；它设定该引擎当时的默认值（vLLM 的 gpu_memory_utilization，0.21 之前为 0.9，及其批处理默认值和 KV 格式；SGLang 的 mem_fraction_static 规则；TensorRT-LLM 的块取整方式与 all-reduce 工作区）</translation>
    </message>
</context>
<context>
    <name>Language</name>
    <message>
        <source>System default</source>
        <translation>系统默认</translation>
    </message>
</context>
<context>
    <name>LlamaFit</name>
    <message>
        <source>no change: %1 tokens, every layer on the GPU</source>
        <translation>不作改动：%1 个词元，所有层都在 GPU 上</translation>
    </message>
    <message>
        <source>context lowered from %1 to %2 tokens, every layer on the GPU</source>
        <translation>上下文从 %1 降到 %2 个词元，所有层都在 GPU 上</translation>
    </message>
    <message>
        <source>no layout keeps its free margin, not even every layer in host memory (%1 tokens)</source>
        <translation>没有布局能留出所需的空闲余量，即使所有层都在主机内存（%1 个词元）</translation>
    </message>
    <message>
        <source>context lowered from %1 to %2 tokens, every layer on the GPUs (-ts %3)</source>
        <translation>上下文从 %1 降到 %2 个词元，所有层都在 GPU 上（-ts %3）</translation>
    </message>
    <message>
        <source>%1 tokens, the output layer and %2 of %3 layers on the GPUs (-ngl %4 -ts %5)</source>
        <translation>%1 个词元，输出层和 %3 层中的 %2 层在 GPU 上（-ngl %4 -ts %5）</translation>
    </message>
    <message>
        <source>%1 tokens, the output layer and %2 of %3 layers on the GPU (-ngl %4)</source>
        <translation>%1 个词元，输出层和 %3 层中的 %2 层在 GPU 上（-ngl %4）</translation>
    </message>
    <message>
        <source>%1 tokens, the output layer and %2 of %3 layers on the GPUs (-ngl %4 -ts %5), the experts of %6 of them in host memory</source>
        <translation>%1 个词元，输出层和 %3 层中的 %2 层在 GPU 上（-ngl %4 -ts %5），其中 %6 层的专家在主机内存中</translation>
    </message>
    <message>
        <source>%1 tokens, the experts of %2 layers in host memory (as --n-cpu-moe %2)</source>
        <translation>%1 个词元，%2 层的专家在主机内存中（相当于 --n-cpu-moe %2）</translation>
    </message>
    <message>
        <source>%1 tokens, the output layer and %2 of %3 layers on the GPU (-ngl %4), the experts of %5 of them in host memory</source>
        <translation>%1 个词元，输出层和 %3 层中的 %2 层在 GPU 上（-ngl %4），其中 %5 层的专家在主机内存中</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>VRAM Planner scenarios (*.vramplanner.json *.json)</source>
        <translation>VRAM Planner 场景 (*.vramplanner.json *.json)</translation>
    </message>
</context>
<context>
    <name>Message</name>
    <message>
        <source>model: only the parameter count is known; layer shapes (%1 layers, hidden %2) are a Llama-shaped guess for activations and the KV cache</source>
        <translation>模型：只知道参数量；层结构（%1 层，隐藏维度 %2）是按 Llama 形状推测的，用于估算激活值和 KV 缓存</translation>
    </message>
    <message>
        <source>sequence: %1 tokens exceed the model&apos;s context length of %2</source>
        <translation>序列：%1 个词元超出了模型的上下文长度 %2</translation>
    </message>
    <message>
        <source>model: encoder-only, so there is no KV cache</source>
        <translation>模型：仅编码器结构，因此没有 KV 缓存</translation>
    </message>
    <message>
        <source>weights: full training stores weights as the regime says; the weight format is ignored</source>
        <translation>权重：全量训练按训练精度方案存储权重；权重格式设置被忽略</translation>
    </message>
    <message>
        <source>zero: stage 0 with several GPUs replicates everything (plain data parallel)</source>
        <translation>ZeRO：多卡时阶段 0 会复制全部内容（普通数据并行）</translation>
    </message>
    <message>
        <source>bf16 is not supported on %1 (needs Ampere or later); use fp16</source>
        <translation>%1 不支持 bf16（需要 Ampere 或更新架构）；请改用 fp16</translation>
    </message>
    <message>
        <source>FlashAttention-2 needs Ampere or later; %1 runs SDPA or eager attention</source>
        <translation>FlashAttention-2 需要 Ampere 或更新架构；%1 只能运行 SDPA 或 eager 注意力</translation>
    </message>
    <message>
        <source>fp8 needs Ada or Hopper (compute capability 8.9+); %1 lacks it</source>
        <translation>fp8 需要 Ada 或 Hopper（计算能力 8.9+）；%1 不支持</translation>
    </message>
    <message>
        <source>model: model_type &apos;%1&apos; has no family rules here; it was read as a Llama-style decoder (RMSNorm, gated MLP, no biases, full attention in every layer) and every number depends on that guess; assumed: %2</source>
        <translation>模型：model_type“%1”在这里没有对应的模型族规则；已按 Llama 式解码器读取（RMSNorm、门控 MLP、无偏置、每层全注意力），所有数字都依赖这一猜测；假定的键：%2</translation>
    </message>
    <message>
        <source>model: config keys not read: %1</source>
        <translation>模型：未读取的配置键：%1</translation>
    </message>
    <message>
        <source>images: %1 images of %2 tokens each make the context %3 tokens</source>
        <translation>图像：%1 张图像、每张 %2 个词元，使上下文达到 %3 个词元</translation>
    </message>
    <message>
        <source>host memory: %1 stays beside the GPUs of one machine, more than its %2</source>
        <translation>主机内存：一台机器的 GPU 之外需要 %1，超过了它的 %2</translation>
    </message>
    <message>
        <source>devices: every rank holds the same share whatever its memory, so the smallest GPU (%1) bounds the set and the larger ones leave memory unused; llama.cpp splits layers by memory instead</source>
        <translation>设备：无论显存大小，每个进程都持有相同的份额，因此最小的 GPU（%1）决定整组的上限，较大的 GPU 会有显存闲置；llama.cpp 则按显存大小切分层</translation>
    </message>
    <message>
        <source>model: part of this %1 config is not modelled yet and was read as a guess; the numbers depend on it; assumed: %2</source>
        <translation>模型：这个 %1 配置中有一部分尚未建模，已按猜测读取；相关数字都依赖这一猜测；假定：%2</translation>
    </message>
    <message>
        <source>serving: %1 has no compressed attention (DeepSeek-V4) at the modelled version and loads no such model; its KV cache here holds the windows only</source>
        <translation>推理服务：%1 在所建模的版本中没有压缩注意力（DeepSeek-V4），无法加载此类模型；此处的 KV 缓存只包含滑动窗口部分</translation>
    </message>
    <message>
        <source>devices: vLLM and SGLang give every worker the smallest worker&apos;s KV cache (%1 tokens)</source>
        <translation>设备：vLLM 和 SGLang 让每个工作进程都使用最小那个工作进程的 KV 缓存（%1 个词元）</translation>
    </message>
    <message>
        <source>SGLang would not start on %1: at mem_fraction_static %2 the weights leave nothing for its KV pool</source>
        <translation>SGLang 无法在 %1 上启动：mem_fraction_static 为 %2 时，权重之外没有留给 KV 池的显存</translation>
    </message>
    <message>
        <source>%1 runs on NVIDIA GPUs only; %2 is not one</source>
        <translation>%1 只能在 NVIDIA GPU 上运行；%2 不是</translation>
    </message>
    <message>
        <source>an NVFP4 KV cache needs a data-centre Blackwell GPU (compute capability 10.x); %1 is not one</source>
        <translation>NVFP4 KV 缓存需要数据中心级 Blackwell GPU（计算能力 10.x）；%1 不是</translation>
    </message>
    <message>
        <source>%1 is built for compute capability %2 and later; %3 is %4</source>
        <translation>%1 为计算能力 %2 及以上的 GPU 构建；%3 的计算能力是 %4</translation>
    </message>
    <message>
        <source>draft.preset: Hugging Face assisted generation runs one sequence: batch 1 and beams 1</source>
        <translation>draft.preset：Hugging Face 的辅助生成只运行一条序列：批大小 1、束数 1</translation>
    </message>
    <message>
        <source>kv_dtype: %1 is not a KV cache format</source>
        <translation>kv_dtype：%1 不是 KV 缓存格式</translation>
    </message>
    <message>
        <source>kv_dtype_v: %1 is not a KV cache format</source>
        <translation>kv_dtype_v：%1 不是 KV 缓存格式</translation>
    </message>
    <message>
        <source>weights: %1 is a KV cache format</source>
        <translation>weights：%1 是 KV 缓存格式</translation>
    </message>
    <message>
        <source>weights: %1 is named only by a checkpoint&apos;s quantisation config, for some of its modules</source>
        <translation>weights：%1 只由检查点的量化配置为其部分模块指定</translation>
    </message>
    <message>
        <source>gpus: must be a multiple of tp x pp (%1)</source>
        <translation>gpus：必须是 tp × pp（%1）的倍数</translation>
    </message>
    <message>
        <source>sp: sequence parallelism needs tp &gt; 1</source>
        <translation>sp：序列并行需要 tp &gt; 1</translation>
    </message>
    <message>
        <source>ep: must divide the data-parallel degree (gpus / (tp x pp))</source>
        <translation>ep：必须整除数据并行度（gpus / (tp × pp)）</translation>
    </message>
    <message>
        <source>model: hidden size, layers, heads, head size and vocabulary must all be positive</source>
        <translation>model：隐藏维度、层数、头数、头维度和词表大小都必须为正</translation>
    </message>
    <message>
        <source>model: key-value heads cannot exceed attention heads</source>
        <translation>model：键值头数不能超过注意力头数</translation>
    </message>
    <message>
        <source>tp: must divide the attention heads (%1)</source>
        <translation>tp：必须整除注意力头数（%1）</translation>
    </message>
    <message>
        <source>ep: must divide the experts</source>
        <translation>ep：必须整除专家数</translation>
    </message>
    <message>
        <source>ep: expert parallelism needs a mixture-of-experts model</source>
        <translation>ep：专家并行需要混合专家（MoE）模型</translation>
    </message>
    <message>
        <source>logits: &apos;last&apos; applies to inference only</source>
        <translation>logits：“last”只适用于推理</translation>
    </message>
    <message>
        <source>%1: %2 does not take %3 (it takes %4)</source>
        <translation>%1：%2 不接受 %3（它接受 %4）</translation>
    </message>
    <message>
        <source>kv_dtype: %1 %2 does not take %3 (it came with %4)</source>
        <translation>kv_dtype：%1 %2 还不接受 %3（始于 %4）</translation>
    </message>
    <message>
        <source>weights: %1 does not load GGUF files</source>
        <translation>weights：%1 不加载 GGUF 文件</translation>
    </message>
    <message>
        <source>kv_dtype: %1 needs K and V heads, not MLA&apos;s latent</source>
        <translation>kv_dtype：%1 需要 K 和 V 头，而不是 MLA 的潜向量</translation>
    </message>
    <message>
        <source>kv_dtype_v: llama.cpp needs flash attention for a quantised V cache (attention flash or sdpa)</source>
        <translation>kv_dtype_v：llama.cpp 的量化 V 缓存需要 flash attention（attention 设为 flash 或 sdpa）</translation>
    </message>
    <message>
        <source>tp: llama.cpp splits layers over GPUs (gpus), not tensors</source>
        <translation>tp：llama.cpp 按层把模型分到多张 GPU（gpus），不切分张量</translation>
    </message>
    <message>
        <source>serving.gpu_layers: generate() offloads layers through device_map, which splits layers over the GPUs: no tp or pp</source>
        <translation>serving.gpu_layers：generate() 通过 device_map 卸载层，它按层把模型分到各 GPU：不能再用 tp 或 pp</translation>
    </message>
    <message>
        <source>logits: fused-linear fuses a training loss with the output layer; inference computes its logits</source>
        <translation>logits：fused-linear 把训练损失与输出层融合；推理要计算 logits</translation>
    </message>
    <message>
        <source>serving.tensor_split: expected %1 shares, one per GPU, e.g. 24,12 or 0,1</source>
        <translation>serving.tensor_split：应有 %1 个份额，每张 GPU 一个，例如 24,12 或 0,1</translation>
    </message>
    <message>
        <source>devices: %1 GPUs listed, but gpus is %2</source>
        <translation>devices：列出了 %1 张 GPU，但 gpus 为 %2</translation>
    </message>
    <message>
        <source>draft.preset: &apos;%1&apos; is not a model preset (see &apos;vramplanner-cli models&apos;)</source>
        <translation>draft.preset：“%1”不是模型预设（见“vramplanner-cli models”）</translation>
    </message>
    <message>
        <source>tp: must divide the draft model&apos;s attention heads (%1)</source>
        <translation>tp：必须整除草稿模型的注意力头数（%1）</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>has no default to return to</source>
        <translation>没有可恢复的默认值</translation>
    </message>
    <message>
        <source>must be between %1 and %2 %3</source>
        <translation>必须在 %1 到 %2 %3之间</translation>
    </message>
    <message>
        <source>must be between %1 and %2</source>
        <translation>必须在 %1 到 %2 之间</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not one of %2</source>
        <translation>“%1”不是 %2 之一</translation>
    </message>
    <message>
        <source>must be a whole number</source>
        <translation>必须是整数</translation>
    </message>
    <message>
        <source>expected one of %1</source>
        <translation>应为 %1 之一</translation>
    </message>
    <message>
        <source>expected a comma list of %1</source>
        <translation>应为以逗号分隔的 %1 列表</translation>
    </message>
    <message>
        <source>expected true or false</source>
        <translation>应为 true 或 false</translation>
    </message>
    <message>
        <source>expected text</source>
        <translation>应为文本</translation>
    </message>
    <message>
        <source>expected a model preset id (see &apos;vramplanner-cli models&apos;)</source>
        <translation>应为模型预设 id（见 &apos;vramplanner-cli models&apos;）</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a model preset id</source>
        <translation>“%1”不是模型预设 id</translation>
    </message>
    <message>
        <source>expected ids separated by commas, e.g. rtx-4090,rtx-3090</source>
        <translation>应为以逗号分隔的 id，例如 rtx-4090,rtx-3090</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a comma list of ids (e.g. rtx-4090,rtx-3090)</source>
        <translation>“%1”不是以逗号分隔的 id 列表（例如 rtx-4090,rtx-3090）</translation>
    </message>
    <message>
        <source>expected shares separated by commas, e.g. 24,12 or 0,1</source>
        <translation>应为以逗号分隔的份额，例如 24,12 或 0,1</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a share of zero or more (e.g. 24,12 or 0,1)</source>
        <translation>“%1”不是大于等于零的份额（例如 24,12 或 0,1）</translation>
    </message>
    <message>
        <source>&apos;%1&apos; gives every GPU a share of zero</source>
        <translation>“%1”给每张 GPU 的份额都是零</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not an integer between %2 and %3</source>
        <translation>“%1”不是 %2 到 %3 之间的整数</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a number between %2 and %3</source>
        <translation>“%1”不是 %2 到 %3 之间的数</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a release number like %2 (or current)</source>
        <translation>“%1”不是形如 %2 的版本号（或 current）</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not LIBRARY=VERSION with a library of %2</source>
        <translation>“%1”不是 库=版本 的形式（库为 %2 之一）</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is neither a layer index below %2 nor sliding_window</source>
        <translation>“%1”既不是小于 %2 的层序号，也不是 sliding_window</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a catalog GPU (see &apos;vramplanner-cli gpus&apos;)</source>
        <translation>“%1”不是目录中的 GPU（见 &apos;vramplanner-cli gpus&apos;）</translation>
    </message>
    <message>
        <source>tp: must divide the key-value heads (%1) or be a multiple of them</source>
        <translation>tp：必须整除键值头数（%1）或是其整数倍</translation>
    </message>
</context>
<context>
    <name>Report</name>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>(default)</source>
        <translation>（默认）</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数量</translation>
    </message>
    <message>
        <source>Generated %1 by VRAM Planner %2.</source>
        <translation>由 VRAM Planner %2 于 %1 生成。</translation>
    </message>
    <message>
        <source>Per-GPU memory</source>
        <translation>每 GPU 显存</translation>
    </message>
    <message>
        <source>Peak phase: **%1**, total **%2** (%3 bytes).</source>
        <translation>峰值阶段：**%1**，总计 **%2**（%3 字节）。</translation>
    </message>
    <message>
        <source>term</source>
        <translation>组成项</translation>
    </message>
    <message>
        <source>memory</source>
        <translation>显存</translation>
    </message>
    <message>
        <source>bytes</source>
        <translation>字节</translation>
    </message>
    <message>
        <source>share</source>
        <translation>占比</translation>
    </message>
    <message>
        <source>total</source>
        <translation>总计</translation>
    </message>
    <message>
        <source>Phases:</source>
        <translation>各阶段：</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>verdict</source>
        <translation>结论</translation>
    </message>
    <message>
        <source>headroom</source>
        <translation>余量</translation>
    </message>
    <message>
        <source>max batch</source>
        <translation>最大批大小</translation>
    </message>
    <message>
        <source>max context</source>
        <translation>最长上下文</translation>
    </message>
    <message>
        <source>KV tokens</source>
        <translation>KV 词元数</translation>
    </message>
    <message>
        <source>Time and cost on %1</source>
        <translation>在 %1 上的时间与成本</translation>
    </message>
    <message>
        <source>figure</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>value</source>
        <translation>数值</translation>
    </message>
    <message>
        <source>layout</source>
        <translation>并行布局</translation>
    </message>
    <message>
        <source>tp %1 × pp %2 × dp %3, ZeRO-%4, offload %5</source>
        <translation>tp %1 × pp %2 × dp %3，ZeRO-%4，卸载：%5</translation>
    </message>
    <message>
        <source>dense peak used</source>
        <translation>采用的稠密峰值</translation>
    </message>
    <message>
        <source>%1 TFLOPS at MFU %2</source>
        <translation>%1 TFLOPS，MFU %2</translation>
    </message>
    <message>
        <source>FLOPs per token</source>
        <translation>每词元 FLOPs</translation>
    </message>
    <message>
        <source>step compute</source>
        <translation>每步计算</translation>
    </message>
    <message>
        <source>step communication</source>
        <translation>每步通信</translation>
    </message>
    <message>
        <source>(communication-bound)</source>
        <translation>（受通信限制）</translation>
    </message>
    <message>
        <source>training time</source>
        <translation>训练时间</translation>
    </message>
    <message>
        <source>%1 h for %2 tokens</source>
        <translation>%2 个词元需 %1 小时</translation>
    </message>
    <message>
        <source>GPU-hours</source>
        <translation>GPU 小时</translation>
    </message>
    <message>
        <source>cost</source>
        <translation>成本</translation>
    </message>
    <message>
        <source>%1 at %2 per GPU-hour</source>
        <translation>%1（每 GPU 小时 %2）</translation>
    </message>
    <message>
        <source>decode (bandwidth bound)</source>
        <translation>解码（受带宽限制）</translation>
    </message>
    <message>
        <source>%1 tokens/s</source>
        <translation>%1 词元/秒</translation>
    </message>
    <message>
        <source>prefill (compute bound)</source>
        <translation>预填充（受算力限制）</translation>
    </message>
    <message>
        <source>Warnings</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>Assumptions</source>
        <translation>假设条件</translation>
    </message>
    <message>
        <source>input</source>
        <translation>输入项</translation>
    </message>
    <message>
        <source>How each term is computed</source>
        <translation>各组成项的计算方法</translation>
    </message>
    <message>
        <source>Source: %1</source>
        <translation>来源：%1</translation>
    </message>
    <message>
        <source>Symbols: %1.</source>
        <translation>符号：%1。</translation>
    </message>
    <message>
        <source>Weight formats by GPU</source>
        <translation>各权重格式在各 GPU 上的情况</translation>
    </message>
    <message>
        <source>Each cell: the longest context (tokens) that fits one GPU, or how many GPUs the scenario&apos;s context needs.</source>
        <translation>每个单元格：单张 GPU 能容纳的最长上下文（词元），或场景的上下文需要几张 GPU。</translation>
    </message>
    <message>
        <source>Format</source>
        <translation>格式</translation>
    </message>
    <message>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>Time and cost on %1 (no GPU chosen; the default)</source>
        <translation>在 %1 上的时间与成本（未选择 GPU，按默认）</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>VRAM Planner %1, %2</source>
        <translation>VRAM Planner %1，%2</translation>
    </message>
    <message>
        <source>%1 (%2 in %3)</source>
        <translation>%1（%3阶段为 %2）</translation>
    </message>
    <message>
        <source>Each of these alone makes it fit:</source>
        <translation>以下任一项单独修改即可装下：</translation>
    </message>
    <message>
        <source>Short of %1 by %2.</source>
        <translation>%1 还差 %2。</translation>
    </message>
    <message>
        <source>%1 → %2 per GPU (%3)</source>
        <translation>%1 → 每 GPU %2（%3）</translation>
    </message>
    <message>
        <source>No change of one input, or of two, makes it fit.</source>
        <translation>改动一项或两项输入都装不下。</translation>
    </message>
    <message>
        <source>Nothing alone makes it fit; each of these pairs does:</source>
        <translation>单独改任何一项都装不下；以下任一组合可以装下：</translation>
    </message>
    <message>
        <source>Sources</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>As set, one GPU holds %1: %2</source>
        <translation>按当前设置，一块 GPU 需容纳 %1：%2</translation>
    </message>
    <message>
        <source>As set, each of %1 GPUs holds %2: %3</source>
        <translation>按当前设置，%1 块 GPU 每块需容纳 %2：%3</translation>
    </message>
    <message>
        <source>With one layer per GPU (%1 GPUs), each still holds %2: %3</source>
        <translation>每块 GPU 只放一层（%1 块 GPU）时，每块仍需 %2：%3</translation>
    </message>
    <message>
        <source>With ZeRO-3 over %1 GPUs, each still holds %2: %3</source>
        <translation>以 ZeRO-3 分片到 %1 块 GPU 时，每块仍需 %2：%3</translation>
    </message>
    <message>
        <source>, </source>
        <translation>，</translation>
    </message>
    <message>
        <source>%1: %2; these rows on their own estimate, %3 per GPU.</source>
        <translation>%1：%2；这些行按各自的估算，每块 GPU %3。</translation>
    </message>
</context>
<context>
    <name>RunLog</name>
    <message>
        <source>total GPU memory</source>
        <translation>GPU 总显存</translation>
    </message>
    <message>
        <source>memory vLLM may use</source>
        <translation>vLLM 可用显存</translation>
    </message>
    <message>
        <source>model weights</source>
        <translation>模型权重</translation>
    </message>
    <message>
        <source>non-torch memory</source>
        <translation>非 torch 显存</translation>
    </message>
    <message>
        <source>activation peak</source>
        <translation>激活峰值</translation>
    </message>
    <message>
        <source>torch peak (weights and activations)</source>
        <translation>torch 峰值（权重和激活）</translation>
    </message>
    <message>
        <source>KV cache memory</source>
        <translation>KV 缓存显存</translation>
    </message>
    <message>
        <source>model buffer</source>
        <translation>模型缓冲区</translation>
    </message>
    <message>
        <source>KV buffer</source>
        <translation>KV 缓冲区</translation>
    </message>
    <message>
        <source>compute buffer</source>
        <translation>计算缓冲区</translation>
    </message>
    <message>
        <source>output buffer</source>
        <translation>输出缓冲区</translation>
    </message>
    <message>
        <source>free at load</source>
        <translation>加载时空闲</translation>
    </message>
    <message>
        <source>allocated</source>
        <translation>已分配</translation>
    </message>
    <message>
        <source>peak allocated</source>
        <translation>已分配峰值</translation>
    </message>
    <message>
        <source>reserved</source>
        <translation>已保留</translation>
    </message>
    <message>
        <source>peak reserved</source>
        <translation>已保留峰值</translation>
    </message>
    <message>
        <source>allocated during the stage</source>
        <translation>该阶段内新分配</translation>
    </message>
    <message>
        <source>peak above the stage&apos;s end</source>
        <translation>高出该阶段结束时的峰值</translation>
    </message>
    <message>
        <source>memory used</source>
        <translation>已用显存</translation>
    </message>
    <message>
        <source>memory total</source>
        <translation>总显存</translation>
    </message>
    <message>
        <source>process memory</source>
        <translation>进程显存</translation>
    </message>
    <message>
        <source>KV cache tokens</source>
        <translation>KV 缓存词元数</translation>
    </message>
    <message>
        <source>maximum concurrency</source>
        <translation>最大并发数</translation>
    </message>
    <message>
        <source>ollama: required (full offload)</source>
        <translation>ollama：全部卸载所需</translation>
    </message>
    <message>
        <source>ollama: KV cache</source>
        <translation>ollama：KV 缓存</translation>
    </message>
    <message>
        <source>ollama: weights</source>
        <translation>ollama：权重</translation>
    </message>
    <message>
        <source>ollama: compute graph</source>
        <translation>ollama：计算图</translation>
    </message>
    <message>
        <source>ollama: planned on the GPU</source>
        <translation>ollama：计划放在该 GPU 上</translation>
    </message>
    <message>
        <source>ollama: free on the GPU</source>
        <translation>ollama：该 GPU 的空闲显存</translation>
    </message>
    <message>
        <source>--fit: projected use</source>
        <translation>--fit：预计用量</translation>
    </message>
    <message>
        <source>KV cache blocks</source>
        <translation>KV 缓存块数</translation>
    </message>
    <message>
        <source>--fit: short of the margins</source>
        <translation>--fit：距预留余量的缺口</translation>
    </message>
    <message>
        <source>--fit: saved by the shorter context</source>
        <translation>--fit：缩短上下文节省的内存</translation>
    </message>
    <message>
        <source>--fit: left with the experts on the host</source>
        <translation>--fit：专家移到主机后的剩余内存</translation>
    </message>
    <message>
        <source>--fit: target (free less margin)</source>
        <translation>--fit：目标（空闲内存减预留余量）</translation>
    </message>
    <message>
        <source>--fit: use at its layout</source>
        <translation>--fit：其选定布局下的占用</translation>
    </message>
    <message>
        <source>out of memory: tried to allocate</source>
        <translation>显存不足：尝试分配</translation>
    </message>
    <message>
        <source>out of memory: total capacity</source>
        <translation>显存不足：总容量</translation>
    </message>
    <message>
        <source>out of memory: free</source>
        <translation>显存不足：空闲</translation>
    </message>
    <message>
        <source>out of memory: allocated</source>
        <translation>显存不足：已分配</translation>
    </message>
    <message>
        <source>out of memory: reserved</source>
        <translation>显存不足：已保留</translation>
    </message>
    <message>
        <source>out of memory: reserved, unallocated</source>
        <translation>显存不足：已保留但未分配</translation>
    </message>
    <message>
        <source>out of memory: process memory</source>
        <translation>显存不足：进程占用</translation>
    </message>
    <message>
        <source>--fit: layers on the device</source>
        <translation>--fit：设备上的层数</translation>
    </message>
    <message>
        <source>ollama: required (partial offload)</source>
        <translation>ollama：所需（部分卸载）</translation>
    </message>
    <message>
        <source>ollama: repeating weights</source>
        <translation>ollama：重复层权重</translation>
    </message>
    <message>
        <source>ollama: non-repeating weights</source>
        <translation>ollama：非重复层权重</translation>
    </message>
    <message>
        <source>ollama: compute graph (partial offload)</source>
        <translation>ollama：计算图（部分卸载）</translation>
    </message>
    <message>
        <source>SGLang: free before the weights load</source>
        <translation>SGLang：加载权重前的空闲显存</translation>
    </message>
    <message>
        <source>SGLang: free after the weights load</source>
        <translation>SGLang：加载权重后的空闲显存</translation>
    </message>
    <message>
        <source>SGLang: memory the weights took</source>
        <translation>SGLang：权重占用的显存</translation>
    </message>
    <message>
        <source>SGLang: KV pool</source>
        <translation>SGLang：KV 池</translation>
    </message>
    <message>
        <source>SGLang: free after the KV pool</source>
        <translation>SGLang：分配 KV 池后的空闲显存</translation>
    </message>
    <message>
        <source>SGLang: KV pool tokens</source>
        <translation>SGLang：KV 池词元数</translation>
    </message>
    <message>
        <source>TensorRT-LLM: weights in torch</source>
        <translation>TensorRT-LLM：torch 中的权重</translation>
    </message>
    <message>
        <source>TensorRT-LLM: profiled activations</source>
        <translation>TensorRT-LLM：剖析得到的激活</translation>
    </message>
    <message>
        <source>TensorRT-LLM: memory outside torch</source>
        <translation>TensorRT-LLM：torch 之外的显存</translation>
    </message>
    <message>
        <source>TensorRT-LLM: profile peak</source>
        <translation>TensorRT-LLM：剖析峰值</translation>
    </message>
    <message>
        <source>TensorRT-LLM: KV memory estimated</source>
        <translation>TensorRT-LLM：估计的 KV 显存</translation>
    </message>
    <message>
        <source>TensorRT-LLM: device total</source>
        <translation>TensorRT-LLM：设备总显存</translation>
    </message>
    <message>
        <source>TensorRT-LLM: the profile&apos;s KV pool</source>
        <translation>TensorRT-LLM：剖析时的 KV 池</translation>
    </message>
    <message>
        <source>TensorRT-LLM: free after the engine loaded</source>
        <translation>TensorRT-LLM：引擎加载后的空闲显存</translation>
    </message>
    <message>
        <source>TensorRT-LLM: KV pool</source>
        <translation>TensorRT-LLM：KV 池</translation>
    </message>
    <message>
        <source>TensorRT-LLM: KV pool tokens</source>
        <translation>TensorRT-LLM：KV 池词元数</translation>
    </message>
    <message>
        <source>TensorRT-LLM: KV bytes per token</source>
        <translation>TensorRT-LLM：每词元 KV 字节数</translation>
    </message>
    <message>
        <source>CUDA-graph estimate</source>
        <translation>CUDA 图估计</translation>
    </message>
    <message>
        <source>weights and non-torch memory</source>
        <translation>权重与非 torch 显存</translation>
    </message>
    <message>
        <source>CUDA graphs captured</source>
        <translation>已捕获的 CUDA 图</translation>
    </message>
    <message>
        <source>SGLang: torch.distributed&apos;s start</source>
        <translation>SGLang：torch.distributed 启动</translation>
    </message>
</context>
<context>
    <name>ScenarioFile</name>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Could not save %1 (%2). The previous file is unchanged.</source>
        <translation>无法保存 %1（%2）。原文件保持不变。</translation>
    </message>
    <message>
        <source>Cannot open %1: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <source>%1 is too large (%2 MiB; the limit is %3 MiB).</source>
        <translation>%1 过大（%2 MiB；上限为 %3 MiB）。</translation>
    </message>
    <message>
        <source>%1 is not a valid scenario:
%2</source>
        <translation>%1 不是有效的场景：
%2</translation>
    </message>
</context>
<context>
    <name>ServingLimit</name>
    <message>
        <source>no limit within the search</source>
        <translation>搜索范围内无限制</translation>
    </message>
    <message>
        <source>time to first token</source>
        <translation>首词元时间</translation>
    </message>
    <message>
        <source>time per output token</source>
        <translation>每输出词元时间</translation>
    </message>
    <message>
        <source>sequences the KV cache holds</source>
        <translation>KV 缓存容纳的序列数</translation>
    </message>
    <message>
        <source>GPU time (prefill and decode fill it)</source>
        <translation>GPU 时间（预填充与解码占满）</translation>
    </message>
</context>
<context>
    <name>ServingPlan</name>
    <message>
        <source>its KV cache holds no sequence of %1 tokens</source>
        <translation>其 KV 缓存放不下一个 %1 词元的序列</translation>
    </message>
    <message>
        <source>the GPU has no compute or bandwidth figure</source>
        <translation>该 GPU 没有算力或带宽数据</translation>
    </message>
    <message>
        <source>needs %1 per GPU; the card has %2</source>
        <translation>每块 GPU 需要 %1；该卡只有 %2</translation>
    </message>
    <message>
        <source>TP %1 × PP %2</source>
        <translation>TP %1 × PP %2</translation>
    </message>
    <message>
        <source>%1: prompts of %2 tokens, %3 output tokens</source>
        <translation>%1：提示 %2 词元，输出 %3 词元</translation>
    </message>
    <message>
        <source>, %1 requests/s</source>
        <translation>，%1 请求/秒</translation>
    </message>
    <message>
        <source>, each replica at its most</source>
        <translation>，每个副本按其上限</translation>
    </message>
    <message>
        <source> (means)</source>
        <translation>（均值）</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>引擎</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Replica</source>
        <translation>副本</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV 缓存</translation>
    </message>
    <message>
        <source>Replicas</source>
        <translation>副本数</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <source>Requests/s per replica</source>
        <translation>每副本请求/秒</translation>
    </message>
    <message>
        <source>Bounded by</source>
        <translation>受限于</translation>
    </message>
    <message>
        <source>Sequences running / held</source>
        <translation>运行中 / 可容纳序列</translation>
    </message>
    <message>
        <source>Prefill ms</source>
        <translation>预填充 ms</translation>
    </message>
    <message>
        <source>TTFT ms</source>
        <translation>首词元 ms</translation>
    </message>
    <message>
        <source>TPOT ms</source>
        <translation>每词元 ms</translation>
    </message>
    <message>
        <source>GPU-hours per million tokens</source>
        <translation>每百万词元 GPU 小时</translation>
    </message>
    <message>
        <source>$ per million tokens</source>
        <translation>每百万词元美元</translation>
    </message>
    <message>
        <source>%1 on %2 (%3, KV %4): %5</source>
        <translation>%1 在 %2 上（%3，KV %4）：%5</translation>
    </message>
    <message>
        <source>Sequences held: the engine&apos;s KV pool at the prompt plus output tokens, up to its running limit.</source>
        <translation>可容纳序列：引擎 KV 池按提示加输出词元计能放下的序列数，不超过其运行上限。</translation>
    </message>
    <message>
        <source>Tokens counted in costs are generated tokens; a GPU&apos;s price is its catalog entry&apos;s price_per_gpu_hour_usd (the focus GPU&apos;s is the price per GPU-hour input).</source>
        <translation>成本只计生成的词元；GPU 价格取其目录条目的 price_per_gpu_hour_usd（焦点 GPU 取“每 GPU 小时价格”输入）。</translation>
    </message>
    <message>
        <source>Serving plan</source>
        <translation>服务方案</translation>
    </message>
    <message>
        <source>No layout serves these targets.</source>
        <translation>没有布局能满足这些目标。</translation>
    </message>
    <message>
        <source>How it is worked out</source>
        <translation>计算方法</translation>
    </message>
    <message>
        <source>Not served (the largest replica tried)</source>
        <translation>无法服务（所试最大副本）</translation>
    </message>
    <message>
        <source>Decode: each step reads the replica&apos;s weights and its sequences&apos; KV cache once at %1 % of the GPU&apos;s memory bandwidth (Pope et al. 2022, §3; the decode bandwidth share). 100 % is the roofline, a ceiling: engines reach 37-87 % at one sequence (README, time error table).</source>
        <translation>解码：每一步以 GPU 显存带宽的 %1 % 把副本的权重和各序列的 KV 缓存各读一遍（Pope 等 2022，§3；即解码带宽占比）。100 % 是屋顶线，是上限：单序列时各引擎达到 37-87 %（README 时间误差表）。</translation>
    </message>
    <message>
        <source>Prefill: the prompt&apos;s forward FLOPs at an MFU of %1 % on its tensor-parallel group.</source>
        <translation>预填充：提示的前向 FLOPs，在其张量并行组上按 %1 % 的 MFU 计算。</translation>
    </message>
    <message>
        <source>%1:</source>
        <translation>%1：</translation>
    </message>
    <message>
        <source>a lone prompt&apos;s first token takes %1 (target %2)</source>
        <translation>单个提示的首个词元需 %1（目标 %2）</translation>
    </message>
    <message>
        <source>one sequence&apos;s decode step takes %1 (target %2)</source>
        <translation>单个序列的一步解码需 %1（目标 %2）</translation>
    </message>
    <message>
        <source>needs %1 GPUs; the plan may use %2</source>
        <translation>需要 %1 块 GPU；方案最多可用 %2 块</translation>
    </message>
    <message>
        <source>; time to first token under %1</source>
        <translation>；首词元时间低于 %1</translation>
    </message>
    <message>
        <source>; time per output token under %1</source>
        <translation>；每输出词元时间低于 %1</translation>
    </message>
    <message>
        <source>Load: Poisson arrivals under iteration-level scheduling (Orca, Yu et al. 2022, §3.1): prefills stretch the decode steps by 1 / (1 - ρ), sequences running follow Little&apos;s law, and a prompt waits the M/D/1 mean behind the prompts ahead of it. Engines that run prefill chunks beside decodes do better near saturation (README, loaded rows of the time error table).</source>
        <translation>负载：迭代级调度下的泊松到达（Orca，Yu 等 2022，§3.1）：预填充把解码步拉长为 1 / (1 - ρ) 倍，运行中的序列数服从利特尔定律，提示在前面的提示之后按 M/D/1 平均等待。把预填充分块与解码放在同一步运行的引擎在接近饱和时表现更好（README 时间误差表中的负载行）。</translation>
    </message>
</context>
<context>
    <name>StepPart</name>
    <message>
        <source>compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>recompute</source>
        <translation>重计算</translation>
    </message>
    <message>
        <source>pipeline bubble</source>
        <translation>流水线气泡</translation>
    </message>
    <message>
        <source>tensor parallel</source>
        <translation>张量并行</translation>
    </message>
    <message>
        <source>data parallel, not overlapped</source>
        <translation>数据并行（未被计算掩盖）</translation>
    </message>
    <message>
        <source>ZeRO-3 gathers</source>
        <translation>ZeRO-3 参数收集</translation>
    </message>
    <message>
        <source>pipeline transfers</source>
        <translation>流水线传输</translation>
    </message>
</context>
<context>
    <name>Suggest</name>
    <message>
        <source>largest batch that fits</source>
        <translation>装得下的最大批大小</translation>
    </message>
    <message>
        <source>longest sequence that fits</source>
        <translation>装得下的最长序列</translation>
    </message>
    <message>
        <source>most layers on the GPU that fit, the rest in host memory</source>
        <translation>GPU 上能放下的最多层数，其余放在主机内存</translation>
    </message>
    <message>
        <source>fewest GPUs that fit, the layers split or ZeRO-3</source>
        <translation>装得下的最少 GPU 数，按层切分或 ZeRO-3</translation>
    </message>
    <message>
        <source>each choice, the one that keeps the most</source>
        <translation>逐一尝试各选项，取改动最小者</translation>
    </message>
    <message>
        <source>the choice that saves most, then the count that fits</source>
        <translation>先取最省显存的选项，再取装得下的数量</translation>
    </message>
    <message>
        <source>two choices together, the pair that keeps the most</source>
        <translation>两个选项同时修改，取改动最小的组合</translation>
    </message>
    <message>
        <source>the fewest GPUs that fit, then the largest count on them</source>
        <translation>能放下的最少 GPU 数，再取其上能放下的最大数量</translation>
    </message>
    <message>
        <source>the smallest tensor-parallel degree that fits, on as many more GPUs</source>
        <translation>能放下的最小张量并行度，GPU 数随之增加</translation>
    </message>
</context>
<context>
    <name>Terms</name>
    <message>
        <source>Weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>LoRA adapters</source>
        <translation>LoRA 适配器</translation>
    </message>
    <message>
        <source>Master weights</source>
        <translation>主权重</translation>
    </message>
    <message>
        <source>Gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>Optimizer states</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <source>Activations</source>
        <translation>激活值</translation>
    </message>
    <message>
        <source>Logits and loss</source>
        <translation>Logits 与损失</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV 缓存</translation>
    </message>
    <message>
        <source>Workspace</source>
        <translation>临时工作区</translation>
    </message>
    <message>
        <source>ZeRO-3 gather buffer</source>
        <translation>ZeRO-3 聚合缓冲区</translation>
    </message>
    <message>
        <source>NCCL buffers</source>
        <translation>NCCL 缓冲区</translation>
    </message>
    <message>
        <source>CUDA context</source>
        <translation>CUDA 上下文</translation>
    </message>
    <message>
        <source>Allocator reserve</source>
        <translation>分配器预留</translation>
    </message>
    <message>
        <source>exceeds</source>
        <translation>超出范围</translation>
    </message>
    <message>
        <source>fits</source>
        <translation>装得下</translation>
    </message>
    <message>
        <source>needs %1 ×</source>
        <translation>需要 %1 ×</translation>
    </message>
    <message>
        <source>cannot fit</source>
        <translation>装不下</translation>
    </message>
    <message>
        <source>forward</source>
        <translation>前向</translation>
    </message>
    <message>
        <source>backward</source>
        <translation>反向</translation>
    </message>
    <message>
        <source>optimizer step</source>
        <translation>优化器更新</translation>
    </message>
    <message>
        <source>inference</source>
        <translation>推理</translation>
    </message>
    <message>
        <source>1 GPU</source>
        <translation>1 张 GPU</translation>
    </message>
    <message>
        <source>%1 GPUs</source>
        <translation>%1 张 GPU</translation>
    </message>
    <message>
        <source>%1 · %2 · %3 · batch %4 · %5 tokens · %6</source>
        <translation>%1 · %2 · %3 · 批大小 %4 · %5 个词元 · %6</translation>
    </message>
    <message>
        <source>fp32</source>
        <translation>fp32</translation>
    </message>
    <message>
        <source>AMP</source>
        <translation>AMP</translation>
    </message>
    <message>
        <source>mixed precision</source>
        <translation>混合精度</translation>
    </message>
    <message>
        <source>DeepSpeed mixed precision</source>
        <translation>DeepSpeed 混合精度</translation>
    </message>
    <message>
        <source>pure bf16</source>
        <translation>纯 bf16</translation>
    </message>
    <message>
        <source>%1 from %2 files</source>
        <translation>%1，来自 %2 文件</translation>
    </message>
    <message>
        <source>load</source>
        <translation>加载</translation>
    </message>
</context>
<context>
    <name>ui::BatchContextChart</name>
    <message>
        <source>Batch %1 × %2 tokens: %3 per GPU</source>
        <translation>批大小 %1 × %2 个词元：每 GPU %3</translation>
    </message>
    <message>
        <source>Fits: %1</source>
        <translation>放得下：%1</translation>
    </message>
    <message>
        <source>Does not fit: %1</source>
        <translation>放不下：%1</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>This scenario: batch %1 × %2 tokens</source>
        <translation>本场景：批大小 %1 × %2 个词元</translation>
    </message>
    <message>
        <source>Each line: the largest batch that fits the GPUs named, at each context; below it, the batch fits.</source>
        <translation>每条线：在各个上下文长度下，所标 GPU 能放下的最大批大小；线以下的批大小放得下。</translation>
    </message>
    <message>
        <source>Not even batch 1 fits: %1</source>
        <translation>连批大小 1 都装不下：%1</translation>
    </message>
    <message>
        <source>Context length (tokens)</source>
        <translation>上下文长度（词元）</translation>
    </message>
    <message>
        <source>Batch size (per GPU)</source>
        <translation>批大小（每 GPU）</translation>
    </message>
    <message>
        <source>Memory per GPU (%1)</source>
        <translation>每 GPU 显存（%1）</translation>
    </message>
</context>
<context>
    <name>ui::BreakdownPanel</name>
    <message>
        <source>Term</source>
        <translation>项</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>显存</translation>
    </message>
    <message>
        <source>Bytes/param</source>
        <translation>字节/参数</translation>
    </message>
    <message>
        <source>Share</source>
        <translation>占比</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>结论</translation>
    </message>
    <message>
        <source>Headroom</source>
        <translation>余量</translation>
    </message>
    <message>
        <source>Max batch</source>
        <translation>最大批大小</translation>
    </message>
    <message>
        <source>Max context</source>
        <translation>最长上下文</translation>
    </message>
    <message>
        <source>KV tokens</source>
        <translation>KV 词元数</translation>
    </message>
    <message>
        <source>Select a term to see how it is computed.</source>
        <translation>选择一项以查看其计算方式。</translation>
    </message>
    <message>
        <source>&amp;Breakdown</source>
        <translation>明细(&amp;B)</translation>
    </message>
    <message>
        <source>&amp;GPUs</source>
        <translation>GPU(&amp;G)</translation>
    </message>
    <message>
        <source>&lt;b&gt;Invalid scenario:&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;场景无效：&lt;/b&gt;%1</translation>
    </message>
    <message>
        <source>Formula</source>
        <translation>公式</translation>
    </message>
    <message>
        <source>With this scenario&apos;s values:</source>
        <translation>代入本场景的数值：</translation>
    </message>
    <message>
        <source>Result:</source>
        <translation>结果：</translation>
    </message>
    <message>
        <source>Source:</source>
        <translation>来源：</translation>
    </message>
    <message>
        <source>Rule of thumb</source>
        <translation>经验法则</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>笔记</translation>
    </message>
    <message>
        <source>Rule gives</source>
        <translation>法则估算</translation>
    </message>
    <message>
        <source>Detailed (1 GPU)</source>
        <translation>详细估算（1 张 GPU）</translation>
    </message>
    <message>
        <source>Difference</source>
        <translation>差异</translation>
    </message>
    <message>
        <source>&amp;Rules of Thumb</source>
        <translation>经验法则(&amp;R)</translation>
    </message>
    <message>
        <source>fp16 inference: 2 bytes per parameter</source>
        <translation>fp16 推理：每个参数 2 字节</translation>
    </message>
    <message>
        <source>mixed-precision Adam: 16 bytes per parameter</source>
        <translation>混合精度 Adam：每个参数 16 字节</translation>
    </message>
    <message>
        <source>practical training minimum: 20 bytes per parameter</source>
        <translation>实际训练下限：每个参数 20 字节</translation>
    </message>
    <message>
        <source>3 × the fp32 weights</source>
        <translation>fp32 权重的 3 倍</translation>
    </message>
    <message>
        <source>4 × the fp32 weights</source>
        <translation>fp32 权重的 4 倍</translation>
    </message>
    <message>
        <source>Total (%1 peak)</source>
        <translation>合计（%1峰值）</translation>
    </message>
    <message>
        <source>activations per sample: (hidden + intermediate) × context × layers</source>
        <translation>每样本激活值：(hidden + intermediate) × 上下文长度 × 层数</translation>
    </message>
    <message>
        <source>Symbols:</source>
        <translation>符号：</translation>
    </message>
    <message>
        <source>Host memory (beside the GPUs)</source>
        <translation>主机内存（GPU 之外）</translation>
    </message>
    <message>
        <source>Right-click to apply a change.</source>
        <translation>右键单击可应用其中一项修改。</translation>
    </message>
    <message>
        <source>Right-click for why, and what would fit.</source>
        <translation>右键单击查看原因，以及怎样才能放下。</translation>
    </message>
    <message>
        <source>Make it fit: %1</source>
        <translation>使其放下：%1</translation>
    </message>
    <message>
        <source>No change of one or two inputs makes it fit</source>
        <translation>改动一两项输入都无法放下</translation>
    </message>
    <message>
        <source>Fitted on its own estimate, %1 per GPU: %2</source>
        <translation>按其自身的估算核对，每块 GPU %1：%2</translation>
    </message>
</context>
<context>
    <name>ui::CalibrationDialog</name>
    <message>
        <source>Calibrate</source>
        <translation>校准</translation>
    </message>
    <message>
        <source>Run the current scenario on your GPU and enter what you measured. Any subset works; sizes take a unit, e.g. &lt;i&gt;14949 MiB&lt;/i&gt; or &lt;i&gt;15.2 GB&lt;/i&gt;.</source>
        <translation>在你的 GPU 上运行当前场景，然后填入测得的数值。填写任意几项均可；大小需带单位，例如 &lt;i&gt;14949 MiB&lt;/i&gt; 或 &lt;i&gt;15.2 GB&lt;/i&gt;。</translation>
    </message>
    <message>
        <source>torch.cuda.max_memory_allocated()</source>
        <translation>torch.cuda.max_memory_allocated()</translation>
    </message>
    <message>
        <source>torch.cuda.max_memory_reserved()</source>
        <translation>torch.cuda.max_memory_reserved()</translation>
    </message>
    <message>
        <source>nvidia-smi, memory used by the process</source>
        <translation>nvidia-smi 显示的进程显存占用</translation>
    </message>
    <message>
        <source>&amp;Allocated:</source>
        <translation>已分配(&amp;A)：</translation>
    </message>
    <message>
        <source>&amp;Reserved:</source>
        <translation>已预留(&amp;R)：</translation>
    </message>
    <message>
        <source>&amp;nvidia-smi:</source>
        <translation>nvidia-smi(&amp;N)：</translation>
    </message>
    <message>
        <source>Profile &amp;name:</source>
        <translation>配置名称(&amp;N)：</translation>
    </message>
    <message>
        <source>A&amp;pply to Scenario</source>
        <translation>应用到场景(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Save Profile…</source>
        <translation>保存配置(&amp;S)…</translation>
    </message>
    <message>
        <source>Save Calibration Profile</source>
        <translation>保存校准配置</translation>
    </message>
    <message>
        <source>Calibration profiles (*.json)</source>
        <translation>校准配置 (*.json)</translation>
    </message>
    <message>
        <source>&lt;b&gt;A size could not be read.&lt;/b&gt; Write a number with a unit, e.g. 14949 MiB.</source>
        <translation>&lt;b&gt;无法读取某个大小。&lt;/b&gt;请写数字加单位，例如 14949 MiB。</translation>
    </message>
    <message>
        <source>Predicted tensors: &lt;b&gt;%1&lt;/b&gt;</source>
        <translation>预测张量：&lt;b&gt;%1&lt;/b&gt;</translation>
    </message>
    <message>
        <source> (%1 % against the measured allocation)</source>
        <translation>（相对实测分配量 %1 %）</translation>
    </message>
    <message>
        <source>Fitted CUDA context: &lt;b&gt;%1 MiB&lt;/b&gt;, allocator reserve: &lt;b&gt;%2 %&lt;/b&gt;</source>
        <translation>拟合的 CUDA 上下文：&lt;b&gt;%1 MiB&lt;/b&gt;，分配器预留：&lt;b&gt;%2 %&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Total per GPU: %1 before, &lt;b&gt;%2&lt;/b&gt; calibrated</source>
        <translation>每 GPU 合计：校准前 %1，校准后 &lt;b&gt;%2&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Apply calibration</source>
        <translation>应用校准</translation>
    </message>
</context>
<context>
    <name>ui::ChartExportDialog</name>
    <message>
        <source>Export Chart</source>
        <translation>导出图表</translation>
    </message>
    <message>
        <source>Size in pixels</source>
        <translation>按像素指定尺寸</translation>
    </message>
    <message>
        <source> px</source>
        <translation> px</translation>
    </message>
    <message>
        <source>&amp;Size:</source>
        <translation>尺寸(&amp;S)：</translation>
    </message>
    <message>
        <source>&amp;Width:</source>
        <translation>宽度(&amp;W)：</translation>
    </message>
    <message>
        <source>&amp;Height:</source>
        <translation>高度(&amp;H)：</translation>
    </message>
    <message>
        <source>%1 dpi</source>
        <translation>%1 dpi</translation>
    </message>
    <message>
        <source>&amp;Resolution:</source>
        <translation>分辨率(&amp;R)：</translation>
    </message>
</context>
<context>
    <name>ui::ClusterPanel</name>
    <message>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <source>tp</source>
        <translation>tp</translation>
    </message>
    <message>
        <source>pp</source>
        <translation>pp</translation>
    </message>
    <message>
        <source>dp</source>
        <translation>dp</translation>
    </message>
    <message>
        <source>ZeRO</source>
        <translation>ZeRO</translation>
    </message>
    <message>
        <source>Checkpointing</source>
        <translation>梯度检查点</translation>
    </message>
    <message>
        <source>Offload</source>
        <translation>卸载</translation>
    </message>
    <message>
        <source>Per GPU / step</source>
        <translation>每 GPU / 步</translation>
    </message>
    <message>
        <source>Double-click a layout to use it</source>
        <translation>双击某个布局即可使用</translation>
    </message>
    <message>
        <source>&lt;b&gt;Layout not valid:&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;布局无效：&lt;/b&gt;%1</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1 GPUs&lt;/b&gt; = tp %2 × pp %3 × dp %4, most loaded rank: %5 stage</source>
        <translation>&lt;b&gt;%1 张 GPU&lt;/b&gt; = tp %2 × pp %3 × dp %4，负载最重的 rank：%5阶段</translation>
    </message>
    <message>
        <source>Per GPU %1 of %2 on %3: &lt;b&gt;%4&lt;/b&gt;</source>
        <translation>每 GPU 在 %3 上占用 %1 / %2：&lt;b&gt;%4&lt;/b&gt;</translation>
    </message>
    <message>
        <source>fits</source>
        <translation>装得下</translation>
    </message>
    <message>
        <source>does not fit</source>
        <translation>装不下</translation>
    </message>
    <message>
        <source>Host memory for offload: %1 per GPU</source>
        <translation>卸载所需主机内存：每 GPU %1</translation>
    </message>
    <message>
        <source> — &lt;b&gt;communication-bound&lt;/b&gt;</source>
        <translation> — &lt;b&gt;受通信限制&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Training time: &lt;b&gt;%1&lt;/b&gt;, %2 GPU-hours</source>
        <translation>训练时间：&lt;b&gt;%1&lt;/b&gt;，%2 GPU 小时</translation>
    </message>
    <message>
        <source>, cost &lt;b&gt;$%1&lt;/b&gt;</source>
        <translation>，费用 &lt;b&gt;$%1&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Decode up to %1 tokens/s (memory bandwidth), prefill %2 tokens/s</source>
        <translation>解码最高 %1 词元/秒（按显存带宽估算），预填充 %2 词元/秒</translation>
    </message>
    <message>
        <source>every rank</source>
        <translation>所有 rank</translation>
    </message>
    <message>
        <source>first stage</source>
        <translation>第一阶段</translation>
    </message>
    <message>
        <source>last stage</source>
        <translation>最后阶段</translation>
    </message>
    <message>
        <source>%1 / %2 s</source>
        <translation>%1 / %2 秒</translation>
    </message>
    <message>
        <source>No layout up to 1,024 GPUs fits</source>
        <translation>在 1,024 张 GPU 以内没有装得下的布局</translation>
    </message>
    <message>
        <source>first</source>
        <translation>第一</translation>
    </message>
    <message>
        <source>last</source>
        <translation>最后</translation>
    </message>
    <message>
        <source>every</source>
        <translation>所有</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1 GPU&lt;/b&gt; = tp %2 × pp %3 × dp %4, most loaded rank: %5 stage</source>
        <translation>&lt;b&gt;%1 张 GPU&lt;/b&gt; = tp %2 × pp %3 × dp %4，负载最重的 rank：%5阶段</translation>
    </message>
    <message>
        <source>The smallest number of the focus GPU at which some layout fits, fastest layouts first</source>
        <translation>关注的 GPU 最少要多少张才有布局能装下，最快的布局排在前面</translation>
    </message>
    <message>
        <source>Use a planned layout</source>
        <translation>使用规划的布局</translation>
    </message>
    <message numerus="yes">
        <source>Serving %n sequence(s): first token after %1 s, then %2 tokens/s each</source>
        <translation>
            <numerusform>服务 %n 条序列：首个词元在 %1 秒后生成，之后每条 %2 词元/秒</numerusform>
        </translation>
    </message>
    <message>
        <source>, &lt;b&gt;$%1&lt;/b&gt; per million generated tokens</source>
        <translation>，每百万生成词元 &lt;b&gt;$%1&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Step: &lt;b&gt;%1 s&lt;/b&gt; = %2 s compute, %3 s pipeline bubble, %4 s communication%5</source>
        <translation>每步：&lt;b&gt;%1 秒&lt;/b&gt; = 计算 %2 秒、流水线气泡 %3 秒、通信 %4 秒%5</translation>
    </message>
    <message>
        <source>Step parts: %1</source>
        <translation>每步各部分：%1</translation>
    </message>
    <message>
        <source>GPU %1</source>
        <translation>GPU %1</translation>
    </message>
    <message>
        <source>Requests of %1 output tokens: %2 per second on these GPUs</source>
        <translation>每个请求输出 %1 个词元：这些 GPU 每秒处理 %2 个请求</translation>
    </message>
    <message>
        <source>; &lt;b&gt;%1 GPUs&lt;/b&gt; for %2 per second</source>
        <translation>；每秒 %2 个请求需要 &lt;b&gt;%1 块 GPU&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Offloaded states are checked against %1 of host memory per node.</source>
        <translation>卸载的状态按每节点 %1 主机内存检查。</translation>
    </message>
    <message>
        <source>Offload layouts assume %1 of host memory per node, as in a DGX H100; set Host memory in the advanced settings to plan for your machine.</source>
        <translation>卸载布局假定每节点有 %1 主机内存（与 DGX H100 相同）；在高级设置中填写“主机内存”即可按你的机器规划。</translation>
    </message>
    <message>
        <source>Find La&amp;youts</source>
        <translation>查找布局(&amp;Y)</translation>
    </message>
</context>
<context>
    <name>ui::ControlsPanel</name>
    <message>
        <source>&amp;Advanced settings</source>
        <translation>高级设置(&amp;A)</translation>
    </message>
    <message>
        <source>A preset (its published config.json), a custom parameter count, or a config.json you opened</source>
        <translation>预设模型（使用其公开发布的 config.json）、自定义参数量，或您打开的 config.json</translation>
    </message>
    <message>
        <source>&amp;Model:</source>
        <translation>模型(&amp;M)：</translation>
    </message>
    <message>
        <source>Inference</source>
        <translation>推理</translation>
    </message>
    <message>
        <source>Full training</source>
        <translation>全量训练</translation>
    </message>
    <message>
        <source>LoRA</source>
        <translation>LoRA</translation>
    </message>
    <message>
        <source>QLoRA</source>
        <translation>QLoRA</translation>
    </message>
    <message>
        <source>M&amp;ode:</source>
        <translation>模式(&amp;O)：</translation>
    </message>
    <message>
        <source>Parameter count (log scale, 0.1B to 2T). Moving it describes the model by its count only.</source>
        <translation>参数量（对数刻度，0.1B 至 2T）。拖动滑块后，模型将仅按参数量描述。</translation>
    </message>
    <message>
        <source>&amp;Parameters:</source>
        <translation>参数量(&amp;P)：</translation>
    </message>
    <message>
        <source>P&amp;recision:</source>
        <translation>精度(&amp;R)：</translation>
    </message>
    <message>
        <source>Op&amp;timizer:</source>
        <translation>优化器(&amp;T)：</translation>
    </message>
    <message>
        <source>&amp;Batch size:</source>
        <translation>批大小(&amp;B)：</translation>
    </message>
    <message>
        <source>&amp;Sequence length:</source>
        <translation>序列长度(&amp;S)：</translation>
    </message>
    <message>
        <source>Custom parameter count</source>
        <translation>自定义参数量</translation>
    </message>
    <message>
        <source>config.json: %1</source>
        <translation>config.json：%1</translation>
    </message>
    <message>
        <source>Full training stores weights as the training regime says</source>
        <translation>全量训练按训练精度方案存储权重</translation>
    </message>
    <message>
        <source> (default)</source>
        <translation>（默认）</translation>
    </message>
    <message>
        <source>Micro-batch per GPU (log scale; type any value up to %1)</source>
        <translation>每 GPU 的微批大小（对数刻度；可输入不超过 %1 的任意值）</translation>
    </message>
    <message>
        <source>Sequence length / context in tokens (log scale; &apos;32k&apos; works; type any value up to %1)</source>
        <translation>序列长度 / 上下文词元数（对数刻度；可输入 &apos;32k&apos;；可输入不超过 %1 的任意值）</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>Precision and attention</source>
        <translation>精度与注意力</translation>
    </message>
    <message>
        <source>Serving</source>
        <translation>推理服务</translation>
    </message>
    <message>
        <source>Runtime</source>
        <translation>运行时</translation>
    </message>
    <message>
        <source>Open…</source>
        <translation>打开…</translation>
    </message>
    <message>
        <source>Read a model from disk: a config.json, a .gguf file, or (File &gt; Open Model Folder) a Hugging Face folder whose safetensors give the exact weight bytes (Ctrl+Shift+O)</source>
        <translation>从磁盘读取模型：config.json、.gguf 文件，或（文件 &gt; 打开模型文件夹）一个 Hugging Face 模型文件夹，其 safetensors 给出精确的权重字节数（Ctrl+Shift+O）</translation>
    </message>
    <message>
        <source>Weights read from %1 %2 files: %3</source>
        <translation>权重读取自 %1 个 %2 文件：%3</translation>
    </message>
    <message>
        <source>Not loaded: %1 multi-token-prediction tensors (%2)</source>
        <translation>未加载：%1 个多词元预测张量（%2）</translation>
    </message>
    <message>
        <source>⚠ model_type “%1” has no family rules here: read as a Llama-style decoder. Numbers marked ~ depend on this guess.</source>
        <translation>⚠ model_type“%1”在这里没有对应的模型族规则：已按 Llama 式解码器读取。标有 ~ 的数字依赖这一猜测。</translation>
    </message>
    <message>
        <source>Config keys not read: %1</source>
        <translation>未读取的配置键：%1</translation>
    </message>
    <message>
        <source>Keys absent from the config, taken from defaults: %1</source>
        <translation>配置中缺失、取默认值的键：%1 个</translation>
    </message>
    <message>
        <source>Files: %1</source>
        <translation>文件：%1</translation>
    </message>
    <message>
        <source>Input</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>adapters are fp32 (PEFT)</source>
        <translation>适配器为 fp32（PEFT）</translation>
    </message>
    <message>
        <source>adapters in the model dtype</source>
        <translation>适配器使用模型的数据类型</translation>
    </message>
    <message>
        <source>LoRA dropout %1</source>
        <translation>LoRA dropout %1</translation>
    </message>
    <message>
        <source>the unquantised weights are cast to fp32 (prepare_model_for_kbit_training)</source>
        <translation>未量化的权重转为 fp32（prepare_model_for_kbit_training）</translation>
    </message>
    <message>
        <source>a torchao NF4 base</source>
        <translation>基座为 torchao NF4</translation>
    </message>
    <message>
        <source>every linear layer 4-bit, lm_head too</source>
        <translation>所有线性层均为 4 位，lm_head 也是</translation>
    </message>
    <message>
        <source>logits: %1</source>
        <translation>logits：%1</translation>
    </message>
    <message>
        <source>%1: checkpointing %2%3; %4.</source>
        <translation>%1：梯度检查点 %2%3；%4。</translation>
    </message>
    <message>
        <source>; </source>
        <translation>；</translation>
    </message>
</context>
<context>
    <name>ui::DeployView</name>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>能否放下</translation>
    </message>
    <message>
        <source>KV cache
budget
(tokens)</source>
        <translation>KV 缓存
预算
（词元）</translation>
    </message>
    <message>
        <source>Sequences
at %1
tokens</source>
        <translation>%1 词元时
的序列数</translation>
    </message>
    <message>
        <source>First
token
(s)</source>
        <translation>首个
词元
（秒）</translation>
    </message>
    <message>
        <source>Decode at
batch %1 (tok/s)
each / in all</source>
        <translation>批大小 %1 时解码
（词元/秒）
每序列 / 合计</translation>
    </message>
    <message>
        <source>Decode at full
concurrency (tok/s)
each / in all</source>
        <translation>满并发时解码
（词元/秒）
每序列 / 合计</translation>
    </message>
    <message>
        <source>$ per million
tokens
batch %1 / full</source>
        <translation>每百万词元
美元
批 %1 / 满并发</translation>
    </message>
    <message>
        <source>Requests/s
(GPUs for
%1 per second)</source>
        <translation>请求/秒
（每秒 %1 个
所需 GPU）</translation>
    </message>
    <message>
        <source>Requests/s
of %1
output tokens</source>
        <translation>请求/秒
（输出 %1
个词元）</translation>
    </message>
    <message>
        <source>Layout not valid: %1</source>
        <translation>布局无效：%1</translation>
    </message>
    <message>
        <source>Per GPU %1; host memory beside each GPU: %2</source>
        <translation>每 GPU %1；每块 GPU 之外的主机内存：%2</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>%1 (does not fit)</source>
        <translation>%1（放不下）</translation>
    </message>
    <message>
        <source>Mixed set: %1; room for %2 KV tokens</source>
        <translation>混合组：%1；可容纳 %2 个 KV 词元</translation>
    </message>
    <message>
        <source>Mixed set: %1</source>
        <translation>混合组：%1</translation>
    </message>
    <message>
        <source>Costs at $%1 per GPU-hour; full concurrency fills the KV cache budget.</source>
        <translation>按每 GPU 小时 $%1 计费；满并发即用满 KV 缓存预算。</translation>
    </message>
    <message>
        <source>No costs: set a price per GPU-hour on the Cluster page.</source>
        <translation>无费用：请在“集群”页设置每 GPU 小时的价格。</translation>
    </message>
    <message>
        <source>no layers fit</source>
        <translation>一层也放不下</translation>
    </message>
    <message>
        <source>all layers fit</source>
        <translation>所有层都放得下</translation>
    </message>
    <message>
        <source>Deploy shows what serving the model takes: switch the mode to Inference to see it.</source>
        <translation>部署页显示的是部署推理服务所需的资源：请把模式切换到“推理”后查看。</translation>
    </message>
    <message>
        <source>--fit: %1</source>
        <translation>--fit：%1</translation>
    </message>
    <message>
        <source>only -ngl 0 fits: every layer in host memory</source>
        <translation>只有 -ngl 0 放得下：所有层都在主机内存中</translation>
    </message>
    <message>
        <source>the output layer and %1 of %2 layers fit</source>
        <translation>放得下输出层和 %2 层中的 %1 层</translation>
    </message>
    <message>
        <source>%1 of %2 layers fit</source>
        <translation>放得下 %2 层中的 %1 层</translation>
    </message>
    <message>
        <source>Plan for &amp;Me</source>
        <translation>为我规划(&amp;M)</translation>
    </message>
    <message>
        <source>Show the &amp;fits</source>
        <translation>显示适配(&amp;F)</translation>
    </message>
    <message>
        <source>The cheapest GPUs and layouts per serving engine for the request rate, output tokens and the time to first token and per output token targets (plan --serve)</source>
        <translation>按请求速率、输出词元数以及首词元与每输出词元时间目标，为每个服务引擎找出最便宜的 GPU 与布局（plan --serve）</translation>
    </message>
    <message>
        <source>%1 and %2 more</source>
        <translation>%1 及另外 %2 款</translation>
    </message>
    <message>
        <source>%1 sequences, %2 tokens a step, %3 per GPU on %4</source>
        <translation>在 %4 上为 %1 个序列、每步 %2 个词元、每块 GPU %3</translation>
    </message>
    <message>
        <source>vLLM&apos;s defaults follow the card: %1</source>
        <translation>vLLM 的默认值随显卡而定：%1</translation>
    </message>
    <message>
        <source>; </source>
        <translation>；</translation>
    </message>
    <message>
        <source>%1 per GPU on %2</source>
        <translation>%2 上每 GPU %1</translation>
    </message>
    <message>
        <source>The engine&apos;s NCCL communicators follow each card&apos;s link: %1</source>
        <translation>引擎的 NCCL 通信器随各卡的互连而变：%1</translation>
    </message>
</context>
<context>
    <name>ui::FieldEditor</name>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>e.g. 300B</source>
        <translation>例如 300B</translation>
    </message>
    <message>
        <source>default</source>
        <translation>默认</translation>
    </message>
    <message>
        <source>default: %1</source>
        <translation>默认：%1</translation>
    </message>
    <message>
        <source>%1:</source>
        <translation>%1：</translation>
    </message>
    <message>
        <source>e.g. 24,12</source>
        <translation>例如 24,12</translation>
    </message>
    <message>
        <source>e.g. rtx-4090,rtx-3090</source>
        <translation>例如 rtx-4090,rtx-3090</translation>
    </message>
    <message>
        <source>current</source>
        <translation>当前版本</translation>
    </message>
</context>
<context>
    <name>ui::GpuPicker</name>
    <message>
        <source>Choose GPUs</source>
        <translation>选择 GPU</translation>
    </message>
    <message>
        <source>&amp;Defaults</source>
        <translation>默认值(&amp;D)</translation>
    </message>
</context>
<context>
    <name>ui::LessonPanel</name>
    <message>
        <source>Seed notes: %1</source>
        <translation>笔记：%1</translation>
    </message>
    <message>
        <source>Question</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>Answer</source>
        <translation>答案</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>为什么</translation>
    </message>
    <message>
        <source>Checked against the engine</source>
        <translation>与引擎核对</translation>
    </message>
    <message>
        <source>Figure</source>
        <translation>数值</translation>
    </message>
    <message>
        <source>The lesson says</source>
        <translation>例题给出</translation>
    </message>
    <message>
        <source>The engine computes</source>
        <translation>引擎计算结果</translation>
    </message>
    <message>
        <source>The lesson&apos;s scenario is now loaded: move any slider to explore it.</source>
        <translation>已载入本例题的场景：拖动任意滑块即可探索。</translation>
    </message>
    <message>
        <source>Open the GPU &amp;Utilisation Calculator</source>
        <translation>打开 GPU 利用率计算器(&amp;U)</translation>
    </message>
</context>
<context>
    <name>ui::LogSliderField</name>
    <message>
        <source>Enter a value between %1 and %2</source>
        <translation>请输入 %1 到 %2 之间的值</translation>
    </message>
</context>
<context>
    <name>ui::MainWindow</name>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;New</source>
        <translation>新建(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <source>Ctrl+Shift+O</source>
        <translation>Ctrl+Shift+O</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>Save &amp;As…</source>
        <translation>另存为(&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;Export</source>
        <translation>导出(&amp;E)</translation>
    </message>
    <message>
        <source>Chart as &amp;PNG…</source>
        <translation>PNG 图表(&amp;P)…</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>Chart as &amp;SVG…</source>
        <translation>SVG 图表(&amp;S)…</translation>
    </message>
    <message>
        <source>SVG drawings (*.svg)</source>
        <translation>SVG 矢量图 (*.svg)</translation>
    </message>
    <message>
        <source>Chart as P&amp;DF…</source>
        <translation>PDF 图表(&amp;D)…</translation>
    </message>
    <message>
        <source>PDF documents (*.pdf)</source>
        <translation>PDF 文档 (*.pdf)</translation>
    </message>
    <message>
        <source>Report as &amp;Markdown…</source>
        <translation>Markdown 报告(&amp;M)…</translation>
    </message>
    <message>
        <source>Markdown (*.md)</source>
        <translation>Markdown (*.md)</translation>
    </message>
    <message>
        <source>Report as &amp;CSV…</source>
        <translation>CSV 报告(&amp;C)…</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>Report as &amp;JSON…</source>
        <translation>JSON 报告(&amp;J)…</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>Cop&amp;y Chart</source>
        <translation>复制图表(&amp;Y)</translation>
    </message>
    <message>
        <source>Ctrl+Shift+C</source>
        <translation>Ctrl+Shift+C</translation>
    </message>
    <message>
        <source>&amp;Print Chart…</source>
        <translation>打印图表(&amp;P)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>Binary units (&amp;GiB)</source>
        <translation>二进制单位（GiB）(&amp;G)</translation>
    </message>
    <message>
        <source>Decimal units (G&amp;B)</source>
        <translation>十进制单位（GB）(&amp;B)</translation>
    </message>
    <message>
        <source>Choose &amp;GPUs…</source>
        <translation>选择 GPU(&amp;G)…</translation>
    </message>
    <message>
        <source>Ctrl+G</source>
        <translation>Ctrl+G</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About VRAM Planner</source>
        <translation>关于 VRAM Planner(&amp;A)</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>关于 Qt(&amp;Q)</translation>
    </message>
    <message>
        <source>Untitled</source>
        <translation>未命名</translation>
    </message>
    <message>
        <source>%1[*] — VRAM Planner</source>
        <translation>%1[*] — VRAM Planner</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>未保存的更改</translation>
    </message>
    <message>
        <source>The scenario has been modified. Save your changes?</source>
        <translation>场景已修改。是否保存更改？</translation>
    </message>
    <message>
        <source>Open Scenario</source>
        <translation>打开场景</translation>
    </message>
    <message>
        <source>Save Scenario</source>
        <translation>保存场景</translation>
    </message>
    <message>
        <source>Unknown export format for %1 (use .png, .svg, .pdf, .md, .csv or .json).</source>
        <translation>无法识别 %1 的导出格式（请使用 .png、.svg、.pdf、.md、.csv 或 .json）。</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Exported %1</source>
        <translation>已导出 %1</translation>
    </message>
    <message>
        <source>Chart copied to the clipboard</source>
        <translation>图表已复制到剪贴板</translation>
    </message>
    <message>
        <source>About VRAM Planner</source>
        <translation>关于 VRAM Planner</translation>
    </message>
    <message>
        <source>&lt;h3&gt;VRAM Planner %1&lt;/h3&gt;&lt;p&gt;How much GPU memory does a large language model need, and which GPUs can run it?&lt;/p&gt;&lt;p&gt;Every figure can be traced to its formula and source: select a term in the breakdown.&lt;/p&gt;&lt;p&gt;VRAM Planner&apos;s own code is under the MIT license. This program links Qt %2 (LGPL v3), QCustomPlot (GPL v3) and nlohmann/json (MIT); as distributed, the program as a whole is therefore under the GPL v3.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;VRAM Planner %1&lt;/h3&gt;&lt;p&gt;大语言模型需要多少显存？哪些 GPU 能运行它？&lt;/p&gt;&lt;p&gt;每个数值都可追溯到其公式和来源：在明细中选择一项即可查看。&lt;/p&gt;&lt;p&gt;VRAM Planner 自身的代码采用 MIT 许可证。本程序链接了 Qt %2（LGPL v3）、QCustomPlot（GPL v3）和 nlohmann/json（MIT）；因此，按分发形式，本程序整体采用 GPL v3 许可证。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>VRAM Planner</source>
        <translation>VRAM Planner</translation>
    </message>
    <message>
        <source>&amp;Tools</source>
        <translation>工具(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Calibrate…</source>
        <translation>校准(&amp;C)…</translation>
    </message>
    <message>
        <source>&amp;Apply Calibration Profile…</source>
        <translation>应用校准配置(&amp;A)…</translation>
    </message>
    <message>
        <source>%1 is not a calibration profile:
%2</source>
        <translation>%1 不是校准配置：
%2</translation>
    </message>
    <message>
        <source>Calibration &apos;%1&apos; applied</source>
        <translation>已应用校准“%1”</translation>
    </message>
    <message>
        <source>Apply Calibration Profile</source>
        <translation>应用校准配置</translation>
    </message>
    <message>
        <source>Calibration profiles (*.json)</source>
        <translation>校准配置 (*.json)</translation>
    </message>
    <message>
        <source>Per &amp;GPU</source>
        <translation>每 GPU(&amp;G)</translation>
    </message>
    <message>
        <source>Memory vs &amp;context</source>
        <translation>显存随上下文变化(&amp;C)</translation>
    </message>
    <message>
        <source>Memory vs &amp;batch</source>
        <translation>显存随批大小变化(&amp;B)</translation>
    </message>
    <message>
        <source>&amp;Presentation Mode</source>
        <translation>演示模式(&amp;P)</translation>
    </message>
    <message>
        <source>L&amp;essons</source>
        <translation>例题(&amp;E)</translation>
    </message>
    <message>
        <source>Lesson</source>
        <translation>例题</translation>
    </message>
    <message>
        <source>Open Lessons &amp;File…</source>
        <translation>打开例题文件(&amp;F)…</translation>
    </message>
    <message>
        <source>Open Lessons</source>
        <translation>打开例题</translation>
    </message>
    <message>
        <source>Lessons (*.json)</source>
        <translation>例题 (*.json)</translation>
    </message>
    <message>
        <source>%1 is not a lessons file:
%2</source>
        <translation>%1 不是例题文件：
%2</translation>
    </message>
    <message>
        <source>C&amp;luster</source>
        <translation>集群(&amp;L)</translation>
    </message>
    <message>
        <source>Your GPU catalog was not loaded</source>
        <translation>未能加载您的 GPU 目录</translation>
    </message>
    <message>
        <source>%1 could not be read; the built-in catalog is used.</source>
        <translation>无法读取 %1；已改用内置目录。</translation>
    </message>
    <message>
        <source>No user data folder could be created (%1).</source>
        <translation>无法创建用户数据文件夹（%1）。</translation>
    </message>
    <message>
        <source>Open My &amp;Data Folder</source>
        <translation>打开我的数据文件夹(&amp;D)</translation>
    </message>
    <message>
        <source>Your GPUs were loaded from %1</source>
        <translation>已从 %1 载入您的 GPU</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <source>Ctrl+Shift+Z</source>
        <translation>Ctrl+Shift+Z</translation>
    </message>
    <message>
        <source>Apply calibration</source>
        <translation>应用校准</translation>
    </message>
    <message>
        <source>GPU &amp;Utilisation…</source>
        <translation>GPU 利用率(&amp;U)…</translation>
    </message>
    <message>
        <source>Open &amp;Model…</source>
        <translation>打开模型(&amp;M)…</translation>
    </message>
    <message>
        <source>Open Model &amp;Folder…</source>
        <translation>打开模型文件夹(&amp;F)…</translation>
    </message>
    <message>
        <source>%1 cannot be read as a model:
%2</source>
        <translation>%1 无法作为模型读取：
%2</translation>
    </message>
    <message>
        <source>Open Model</source>
        <translation>打开模型</translation>
    </message>
    <message>
        <source>Model files (config.json *.json *.gguf *.safetensors);;GGUF (*.gguf);;Hugging Face config (config.json *.json)</source>
        <translation>模型文件 (config.json *.json *.gguf *.safetensors);;GGUF (*.gguf);;Hugging Face 配置 (config.json *.json)</translation>
    </message>
    <message>
        <source>Open Model Folder</source>
        <translation>打开模型文件夹</translation>
    </message>
    <message>
        <source>&amp;Deploy</source>
        <translation>部署(&amp;D)</translation>
    </message>
    <message>
        <source>Format matr&amp;ix</source>
        <translation>格式矩阵(&amp;I)</translation>
    </message>
    <message>
        <source>Batch × conte&amp;xt</source>
        <translation>批大小 × 上下文(&amp;X)</translation>
    </message>
    <message>
        <source>Matrix as &amp;Markdown…</source>
        <translation>Markdown 矩阵(&amp;M)…</translation>
    </message>
    <message>
        <source>Matrix as &amp;CSV…</source>
        <translation>CSV 矩阵(&amp;C)…</translation>
    </message>
    <message>
        <source>Matrix as &amp;JSON…</source>
        <translation>JSON 矩阵(&amp;J)…</translation>
    </message>
    <message>
        <source>Compare with a &amp;Run…</source>
        <translation>与实际运行对比(&amp;R)…</translation>
    </message>
    <message>
        <source>Paste &amp;Log</source>
        <translation>粘贴日志(&amp;L)</translation>
    </message>
    <message>
        <source>the clipboard</source>
        <translation>剪贴板</translation>
    </message>
    <message>
        <source>My &amp;Runs…</source>
        <translation>我的运行记录(&amp;R)…</translation>
    </message>
    <message>
        <source>Compare with a Run</source>
        <translation>与实际运行对比</translation>
    </message>
    <message>
        <source>Run logs (*.log *.txt *.out *.csv *.json);;All files (*)</source>
        <translation>运行日志 (*.log *.txt *.out *.csv *.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>One-Page Report as PD&amp;F…</source>
        <translation>单页报告 PDF(&amp;F)…</translation>
    </message>
    <message>
        <source>Serving plan as &amp;Markdown…</source>
        <translation>Markdown 服务方案(&amp;M)…</translation>
    </message>
    <message>
        <source>Serving plan as &amp;CSV…</source>
        <translation>CSV 服务方案(&amp;C)…</translation>
    </message>
    <message>
        <source>Serving plan as &amp;JSON…</source>
        <translation>JSON 服务方案(&amp;J)…</translation>
    </message>
</context>
<context>
    <name>ui::MatrixChart</name>
    <message>
        <source>%1 tokens</source>
        <translation>%1 个词元</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>more than can be searched</source>
        <translation>超出搜索范围</translation>
    </message>
    <message>
        <source>%1 (%2) on %3
Per GPU at %4 tokens: %5 of %6
Longest context that fits one GPU: %7
GPUs needed: %8</source>
        <translation>%1（%2）在 %3 上
%4 个词元时每 GPU：%5 / %6
单块 GPU 能放下的最长上下文：%7
所需 GPU：%8</translation>
    </message>
    <message>
        <source>Each cell: the longest context that fits one GPU in that weight format (greener: longer), or how many GPUs the scenario&apos;s %1 tokens need (orange; vermillion: none up to the search limit).</source>
        <translation>每格：该权重格式下单块 GPU 能放下的最长上下文（越绿越长），或本场景 %1 个词元需要多少块 GPU（橙色；朱红色：搜索上限内都放不下）。</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Weight format</source>
        <translation>权重格式</translation>
    </message>
</context>
<context>
    <name>ui::MemoryChart</name>
    <message>
        <source>Memory per GPU (%1)</source>
        <translation>每 GPU 显存（%1）</translation>
    </message>
    <message>
        <source>per GPU, with %1 GPUs</source>
        <translation>每张 GPU，共 %1 张 GPU</translation>
    </message>
    <message>
        <source>GPU %1</source>
        <translation>GPU %1</translation>
    </message>
    <message>
        <source>Host RAM</source>
        <translation>主机内存</translation>
    </message>
    <message>
        <source>in host memory, for the GPUs of one machine</source>
        <translation>位于主机内存，对应一台机器上的 GPU</translation>
    </message>
    <message>
        <source>+%1 even split</source>
        <translation>均分后仍超 %1</translation>
    </message>
</context>
<context>
    <name>ui::MyRunsDialog</name>
    <message>
        <source>My Runs</source>
        <translation>我的运行记录</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Date</source>
        <translation>日期</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Quantity</source>
        <translation>数量项</translation>
    </message>
    <message>
        <source>Planned</source>
        <translation>规划值</translation>
    </message>
    <message>
        <source>Measured</source>
        <translation>实测值</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>误差</translation>
    </message>
    <message>
        <source>Planner term</source>
        <translation>规划项</translation>
    </message>
    <message>
        <source>No kept runs yet: File &gt; Compare with a Run…, then Keep in My Runs, adds one.</source>
        <translation>还没有保存的运行记录：在“文件 &gt; 与实际运行对比…”中点“保存到我的运行记录”即可添加。</translation>
    </message>
    <message>
        <source>%1 cannot be read: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>#%1 %2 (%3)</source>
        <translation>#%1 %2（%3）</translation>
    </message>
    <message numerus="yes">
        <source>%n run(s) kept in %1</source>
        <translation>
            <numerusform>%1 中保存了 %n 条运行记录</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
</context>
<context>
    <name>ui::RunCompareChart</name>
    <message>
        <source>%1 (%2 %)</source>
        <translation>%1（%2 %）</translation>
    </message>
    <message>
        <source>Planned</source>
        <translation>规划值</translation>
    </message>
    <message>
        <source>Measured</source>
        <translation>实测值</translation>
    </message>
    <message>
        <source>Memory (%1)</source>
        <translation>显存（%1）</translation>
    </message>
</context>
<context>
    <name>ui::RunCompareDialog</name>
    <message>
        <source>%1 bytes</source>
        <translation>%1 字节</translation>
    </message>
    <message>
        <source>Compare with a Run</source>
        <translation>与实际运行对比</translation>
    </message>
    <message>
        <source>Quantity</source>
        <translation>数量项</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Measured</source>
        <translation>实测值</translation>
    </message>
    <message>
        <source>Planned</source>
        <translation>规划值</translation>
    </message>
    <message>
        <source>Difference</source>
        <translation>差值</translation>
    </message>
    <message>
        <source>Line</source>
        <translation>行</translation>
    </message>
    <message>
        <source>Planner term</source>
        <translation>规划项</translation>
    </message>
    <message>
        <source>&amp;Use the Log&apos;s Settings</source>
        <translation>采用日志中的设置(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Calibrate from This Run…</source>
        <translation>按此次运行校准(&amp;C)…</translation>
    </message>
    <message>
        <source>&amp;Keep in My Runs</source>
        <translation>保存到我的运行记录(&amp;K)</translation>
    </message>
    <message>
        <source>Copy &amp;Table</source>
        <translation>复制表格(&amp;T)</translation>
    </message>
    <message>
        <source>Take the settings the log states into the window&apos;s scenario (undoable)</source>
        <translation>把日志中给出的设置用到窗口的场景中（可撤销）</translation>
    </message>
    <message>
        <source>Add this comparison to runs.json in your data folder (Tools &gt; My Runs)</source>
        <translation>把这次对比加入数据文件夹中的 runs.json（工具 &gt; 我的运行记录）</translation>
    </message>
    <message>
        <source>Copy the table as CSV</source>
        <translation>以 CSV 格式复制表格</translation>
    </message>
    <message>
        <source>%1 is not a run log VRAM Planner can read:
%2</source>
        <translation>%1 不是 VRAM Planner 能读取的运行日志：
%2</translation>
    </message>
    <message>
        <source>Compare with a Run — %1</source>
        <translation>与实际运行对比 — %1</translation>
    </message>
    <message>
        <source>%1 = %2 (line %3)</source>
        <translation>%1 = %2（第 %3 行）</translation>
    </message>
    <message>
        <source>Plan: %1</source>
        <translation>规划：%1</translation>
    </message>
    <message>
        <source>The log states no setting the scenario takes.</source>
        <translation>日志中没有场景可采用的设置。</translation>
    </message>
    <message>
        <source>From the log: %1</source>
        <translation>取自日志：%1</translation>
    </message>
    <message>
        <source>Kept as you set them: %1</source>
        <translation>保留你的设置：%1</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>not planned</source>
        <translation>未规划</translation>
    </message>
    <message>
        <source>Use the log&apos;s settings</source>
        <translation>采用日志中的设置</translation>
    </message>
    <message>
        <source>There is no user data folder to keep runs in.</source>
        <translation>没有可保存运行记录的用户数据文件夹。</translation>
    </message>
    <message>
        <source>%1 = %2 (by the log&apos;s format)</source>
        <translation>%1 = %2（由日志格式判断）</translation>
    </message>
</context>
<context>
    <name>ui::ScenarioController</name>
    <message>
        <source>Model</source>
        <translation>模型(M)</translation>
    </message>
</context>
<context>
    <name>ui::SweepChart</name>
    <message>
        <source>%1: not even batch 1</source>
        <translation>%1：连批大小 1 都装不下</translation>
    </message>
    <message>
        <source>%1: no context fits</source>
        <translation>%1：任何上下文长度都装不下</translation>
    </message>
    <message>
        <source>%1: every batch up to %2 fits</source>
        <translation>%1：批大小直到 %2 都装得下</translation>
    </message>
    <message>
        <source>%1: the whole range fits</source>
        <translation>%1：整个范围都装得下</translation>
    </message>
    <message>
        <source>max batch on %1: %2</source>
        <translation>%1 上的最大批大小：%2</translation>
    </message>
    <message>
        <source>max context on %1: %2 tokens</source>
        <translation>%1 上的最长上下文：%2 个词元</translation>
    </message>
    <message>
        <source>Batch size (per GPU)</source>
        <translation>批大小（每 GPU）</translation>
    </message>
    <message>
        <source>Context length (tokens)</source>
        <translation>上下文长度（词元）</translation>
    </message>
    <message>
        <source>Memory per GPU (%1)</source>
        <translation>每 GPU 显存（%1）</translation>
    </message>
    <message>
        <source>Every batch fits: %1</source>
        <translation>所有批大小都装得下：%1</translation>
    </message>
    <message>
        <source>The whole range fits: %1</source>
        <translation>整个范围都装得下：%1</translation>
    </message>
    <message>
        <source>Not even batch 1 fits: %1</source>
        <translation>连批大小 1 都装不下：%1</translation>
    </message>
    <message>
        <source>No context fits: %1</source>
        <translation>任何上下文都装不下：%1</translation>
    </message>
    <message>
        <source>this scenario: batch %1</source>
        <translation>本场景：批大小 %1</translation>
    </message>
    <message>
        <source>this scenario: %1 tokens</source>
        <translation>本场景：%1 个词元</translation>
    </message>
    <message>
        <source>Above the chart: up to %1 at batch %2</source>
        <translation>超出图表：批大小 %2 时最高 %1</translation>
    </message>
    <message>
        <source>Above the chart: up to %1 at %2 tokens</source>
        <translation>超出图表：%2 个词元时最高 %1</translation>
    </message>
    <message>
        <source>%1 × %2</source>
        <translation>%1 × %2</translation>
    </message>
    <message>
        <source>Nothing shown fits one GPU as set: drawn per GPU of %1, the fewest that fit</source>
        <translation>按当前设置，所示 GPU 单卡都放不下：按能放下的最少配置 %1 画出每块 GPU 的用量</translation>
    </message>
    <message>
        <source>Nothing shown fits %1 GPUs as set: drawn per GPU of %2, the fewest that fit</source>
        <translation>按当前设置，所示 GPU 用 %1 块都放不下：按能放下的最少配置 %2 画出每块 GPU 的用量</translation>
    </message>
    <message>
        <source>The curve is on vLLM&apos;s defaults for the focus GPU; %1 start with other defaults and are marked where their own estimate crosses</source>
        <translation>曲线按焦点 GPU 上 vLLM 的默认值绘制；%1 以其他默认值启动，标记在其自身估算的交点处</translation>
    </message>
    <message>
        <source>The curve is on the focus GPU&apos;s link; %1 connect over another link and are marked where their own estimate crosses</source>
        <translation>曲线按焦点 GPU 的互连绘制；%1 经另一种互连相连，标记在其自身估算的交点处</translation>
    </message>
</context>
<context>
    <name>ui::UtilizationDialog</name>
    <message>
        <source> TFLOPS</source>
        <translation> TFLOPS</translation>
    </message>
    <message>
        <source> tokens/s</source>
        <translation> 词元/秒</translation>
    </message>
    <message>
        <source> billion</source>
        <translation> 十亿</translation>
    </message>
    <message>
        <source>Count &amp;attention FLOPs (12 × L × h × s per trained token)</source>
        <translation>计入注意力 FLOPs（每个训练词元 12 × L × h × s）(&amp;A)</translation>
    </message>
    <message>
        <source>GPU Utilisation</source>
        <translation>GPU 利用率</translation>
    </message>
    <message>
        <source>Three ways to read a run&apos;s GPU utilisation. The seed notes rank them (S16): a profiler trace is the most accurate, then the FLOPs ratio, then the throughput ratio.</source>
        <translation>衡量一次运行 GPU 利用率的三种方法。笔记的排序是（S16）：性能分析器记录最准确，其次是 FLOPs 比值法，再次是吞吐量比值法。</translation>
    </message>
    <message>
        <source>Training step: 6N per token</source>
        <translation>训练步：每词元 6N</translation>
    </message>
    <message>
        <source>Forward only (inference): 2N per token</source>
        <translation>仅前向（推理）：每词元 2N</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>层数</translation>
    </message>
    <message>
        <source>Attention width: heads × head size</source>
        <translation>注意力宽度：头数 × 每头维度</translation>
    </message>
    <message>
        <source>Sequence length in tokens</source>
        <translation>序列长度（词元数）</translation>
    </message>
    <message>
        <source>&amp;GPU:</source>
        <translation>GPU(&amp;G)：</translation>
    </message>
    <message>
        <source>&amp;Precision:</source>
        <translation>精度(&amp;P)：</translation>
    </message>
    <message>
        <source>Datasheet peak:</source>
        <translation>规格峰值：</translation>
    </message>
    <message>
        <source>Achieved (&amp;FLOPs ratio):</source>
        <translation>实测算力（FLOPs 比值法）(&amp;F)：</translation>
    </message>
    <message>
        <source>&amp;Measured per GPU:</source>
        <translation>实测每 GPU(&amp;M)：</translation>
    </message>
    <message>
        <source>&amp;Reference run per GPU:</source>
        <translation>参考运行每 GPU(&amp;R)：</translation>
    </message>
    <message>
        <source>Model parameters &amp;N:</source>
        <translation>模型参数量(&amp;N)：</translation>
    </message>
    <message>
        <source>&amp;Work per token:</source>
        <translation>每词元计算量(&amp;W)：</translation>
    </message>
    <message>
        <source>%1 TFLOPS, dense %2</source>
        <translation>%1 TFLOPS，稠密 %2</translation>
    </message>
    <message>
        <source>not in the catalog for %1</source>
        <translation>目录中没有 %1 的数值</translation>
    </message>
    <message>
        <source>The catalog gives no %1 peak for this GPU: choose another precision.</source>
        <translation>目录中没有此 GPU 的 %1 峰值：请选择其他精度。</translation>
    </message>
    <message>
        <source>Throughput ratio (S15): &lt;b&gt;%1 %&lt;/b&gt;</source>
        <translation>吞吐量比值（S15）：&lt;b&gt;%1 %&lt;/b&gt;</translation>
    </message>
    <message>
        <source>measured ÷ reference tokens/s per GPU = %1 ÷ %2</source>
        <translation>实测 ÷ 参考的每 GPU 词元/秒 = %1 ÷ %2</translation>
    </message>
    <message>
        <source>Source: seed notes §7.2, which take the reference run to be at full utilisation.</source>
        <translation>来源：笔记 §7.2，笔记把参考运行当作满利用率。</translation>
    </message>
    <message>
        <source>FLOPs ratio (S14): &lt;b&gt;%1 %&lt;/b&gt;</source>
        <translation>FLOPs 比值（S14）：&lt;b&gt;%1 %&lt;/b&gt;</translation>
    </message>
    <message>
        <source>achieved ÷ peak = %1 TFLOPS ÷ %2 TFLOPS</source>
        <translation>实测 ÷ 峰值 = %1 TFLOPS ÷ %2 TFLOPS</translation>
    </message>
    <message>
        <source>Source: seed notes §7.1; peak: %1, dense %2, from %3</source>
        <translation>来源：笔记 §7.1；峰值：%1，稠密 %2，出自 %3</translation>
    </message>
    <message>
        <source>Source: PaLM, Chowdhery et al. 2022, Appendix B (6N per trained token: Kaplan et al. 2020 §2.1)</source>
        <translation>来源：PaLM，Chowdhery 等 2022，附录 B（每个训练词元 6N：Kaplan 等 2020 §2.1）</translation>
    </message>
    <message>
        <source>tokens/s × FLOPs per token ÷ peak = %1 × %2 GFLOP ÷ %3 TFLOPS</source>
        <translation>词元/秒 × 每词元 FLOPs ÷ 峰值 = %1 × %2 GFLOP ÷ %3 TFLOPS</translation>
    </message>
    <message>
        <source>Model FLOPs utilisation (MFU): &lt;b&gt;%1 %&lt;/b&gt;</source>
        <translation>模型 FLOPs 利用率（MFU）：&lt;b&gt;%1 %&lt;/b&gt;</translation>
    </message>
    <message>
        <source>FLOPs per token = %1 = %2 GFLOP</source>
        <translation>每词元 FLOPs = %1 = %2 GFLOP</translation>
    </message>
    <message>
        <source>The reference run&apos;s MFU: &lt;b&gt;%1 %&lt;/b&gt;</source>
        <translation>参考运行的 MFU：&lt;b&gt;%1 %&lt;/b&gt;</translation>
    </message>
    <message>
        <source>⚠ The throughput ratio is relative to a run that was itself at %1 % MFU, not at full use: this run&apos;s %2 % of the reference is %3 % of the GPU&apos;s peak.</source>
        <translation>⚠ 吞吐量比值是相对于一次本身只有 %1 % MFU、并非满利用率的运行而言的：本次运行达到参考的 %2 %，只相当于 GPU 峰值的 %3 %。</translation>
    </message>
</context>
</TS>
