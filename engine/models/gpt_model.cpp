// GPT-2 (Radford et al. 2019; HF GPT2LMHeadModel): token + learned position embeddings,
// pre-LN blocks (LayerNorm with bias, causal attention with biased q/k/v/o projections,
// GELU MLP of ffn = 4 x hidden by default), final LayerNorm, lm_head tied to the token
// embedding by default. c_attn is split into q/k/v projections: same parameters and FLOPs.
//
// "attention": "sdpa" (default) runs one fused flash kernel (F.scaled_dot_product_attention);
// "eager" spells attention out as GPT2Attention._attn / Megatron without flash do
// (engine/models/eager_attention.h), keeping the [B, heads, S, S] softmax output, dropout
// mask and dropped probabilities that Korthikanti et al.'s 5as/h term counts; "megatron"
// is Megatron-LM's own unfused attention (2022, the paper's), the same with the scale in the
// scores GEMM and the mask in one fused scale-mask-softmax kernel.
// "dropout" (default 0, as in modern recipes; GPT-2 trained with 0.1) is HF's embd_pdrop,
// attn_pdrop and resid_pdrop in one: after the embeddings, on the attention probabilities
// (inside the flash kernel for sdpa, which regenerates its mask rather than saving it) and
// after each block's output projection (saving a 1-byte mask each). 0 emits no Dropout.
#include "engine/models/causal_lm_head.h"
#include "engine/models/config_reader.h"
#include "engine/models/eager_attention.h"
#include "engine/models/graph_builder.h"
#include "engine/models/model_partition.h"
#include "engine/models/model_zoo.h"

namespace npu::engine {

Expected<Graph> buildGpt(const nlohmann::json& config, const ZooShape& shape) {
    ConfigReader cfg(config, "model.config");
    const auto hidden = cfg.positiveInt("hidden");
    const auto layers = cfg.positiveInt("layers");
    const auto heads = cfg.positiveInt("heads");
    const auto vocab = cfg.positiveInt("vocab");
    const auto maxSeq = cfg.positiveInt("max_seq", 1024);
    const auto ffn = cfg.positiveInt("ffn", 4 * hidden);
    const bool tied = cfg.boolean("tie_embeddings", true);
    const std::string attention = cfg.choice("attention", {"sdpa", "eager", "megatron"}, "sdpa");
    const bool eager = attention != "sdpa";
    const double dropout = cfg.probability("dropout", 0);
    const ModelPartition part = ModelPartition::read(cfg);
    if (auto s = cfg.finish(); !s) return s.error();
    if (layers > kMaxModelLayers) return makeError(tooManyLayers(layers));
    std::optional<Error> shardError;
    const auto headsR = part.shard(heads, "heads", shardError), ffnR = part.shard(ffn, "ffn", shardError);
    const auto hiddenR = hidden / heads * headsR;  // this rank's attention width
    const auto vocabR = (vocab + part.tensorParallel - 1) / part.tensorParallel;  // Megatron pads the vocabulary
    if (shardError) return *shardError;
    if (hidden % heads != 0) return makeError("model.config.heads: " + std::to_string(heads) + " does not divide hidden " + std::to_string(hidden));
    if (shape.seq > maxSeq) return makeError("training.seq: " + std::to_string(shape.seq) + " exceeds model.config.max_seq " + std::to_string(maxSeq));
    const auto B = shape.batch, S = shape.seq;

    GraphBuilder b("gpt");
    int wte = -1, x = -1;
    if (part.embedding) {
        const int ids = b.input("input_ids", {B, S}, DType::i64);
        const int pos = b.input("position_ids", {S}, DType::i64);
        wte = b.weight("wte.weight", {vocabR, hidden});
        const int tok = b.op(OpKind::Embedding, "wte", {ids, wte});
        const int pe = b.op(OpKind::Embedding, "wpe", {pos, b.weight("wpe.weight", {maxSeq, hidden})});
        x = part.scatterSequence(b, b.op(OpKind::Add, "embed.add", {tok, pe}), "embed.sp_scatter");
        if (dropout > 0) x = b.ops(OpKind::Dropout, "embed.dropout", {x}, {{"ratio", dropout}}, 2)[0];
    } else {
        x = addStageInput(b, B, part.localSeq(S), hidden);
    }
    auto linear = [&](const std::string& name, int in, std::int64_t outF, std::int64_t inF) {
        return b.op(OpKind::Linear, name, {in, b.weight(name + ".weight", {outF, inF}), b.weight(name + ".bias", {outF})});
    };
    auto layerNorm = [&](const std::string& name, int in) {
        return b.op(OpKind::LayerNormalization, name, {in, b.weight(name + ".weight", {hidden}), b.weight(name + ".bias", {hidden})},
                    {{"axis", std::int64_t{-1}}});
    };
    Attributes attnAttrs{{"heads", headsR}, {"kv_heads", headsR}, {"causal", std::int64_t{1}}};
    if (dropout > 0) attnAttrs["dropout"] = dropout;
    const int causalMask = attention == "eager" ? addCausalMaskBuffer(b, S, "causal_mask") : -1;
    const EagerAttentionShape eagerShape{.heads = headsR, .headDim = hidden / heads, .dropout = dropout, .fusedScaleMaskSoftmax = attention == "megatron"};
    auto residualDropout = [&](const std::string& name, int in) {
        return dropout > 0 ? b.ops(OpKind::Dropout, name, {in}, {{"ratio", dropout}}, 2)[0] : in;
    };
    for (std::int64_t i = 0; i < layers; ++i) {
        const std::string p = "layers." + std::to_string(i) + ".";
        b.setBlock("layers." + std::to_string(i));
        const int n1 = part.gatherSequence(b, layerNorm(p + "ln_1", x), p + "attn.sp_gather");
        const int q = linear(p + "attn.q_proj", n1, hiddenR, hidden);
        const int k = linear(p + "attn.k_proj", n1, hiddenR, hidden);
        const int v = linear(p + "attn.v_proj", n1, hiddenR, hidden);
        const int a = eager ? addEagerAttention(b, q, k, v, causalMask, eagerShape, p + "attn.eager")
                            : b.ops(OpKind::ScaledDotProductAttention, p + "attn.sdpa", {q, k, v}, attnAttrs, 2)[0];
        const int o = residualDropout(p + "attn.resid_dropout", part.scatterSequence(b, linear(p + "attn.o_proj", a, hidden, hiddenR), p + "attn.sp_scatter"));
        x = b.op(OpKind::Add, p + "attn.residual", {x, o});
        const int n2 = part.gatherSequence(b, layerNorm(p + "ln_2", x), p + "mlp.sp_gather");
        const int h = b.op(OpKind::Gelu, p + "mlp.gelu", {linear(p + "mlp.fc", n2, ffnR, hidden)});
        const int m = residualDropout(p + "mlp.dropout", part.scatterSequence(b, linear(p + "mlp.proj", h, hidden, ffnR), p + "mlp.sp_scatter"));
        x = b.op(OpKind::Add, p + "mlp.residual", {x, m});
    }
    b.setBlock("");
    if (!part.lmHead) {
        addStageOutput(b, x);
        return b.finish();
    }
    const int labels = b.input("labels", {B, S}, DType::i64);
    const int nf = part.gatherSequence(b, layerNorm("ln_f", x), "ln_f.sp_gather");
    // A last pipeline stage keeps its own copy of a tied embedding (Megatron-LM).
    const int headW = tied && wte >= 0 ? wte : b.weight("lm_head.weight", {vocabR, hidden});
    addCausalLmHeadAndLoss(b, nf, headW, labels);
    return b.finish();
}

}  // namespace npu::engine
