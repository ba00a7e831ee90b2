// LLaMA (Touvron et al. 2023; HF LlamaForCausalLM layout): token embedding, per layer
// RMSNorm -> q/k/v projections (GQA: kv_heads) -> rotary -> causal attention -> o_proj
// -> residual, RMSNorm -> SwiGLU MLP (gate, up, SiLU, Mul, down) -> residual; final
// RMSNorm, lm_head (tied to the embedding or not) and the causal LM cross-entropy.
// As in HF's ForCausalLMLoss the logits are upcast to fp32 before the loss.
//
// "hf_eager_ops" (default true) spells RMSNorm and rotary out as HF's eager code runs them
// (engine/models/hf_eager_ops.h): the memory-bound kernels and fp32 saved tensors an eager
// step pays, which graph_level >= 1 fuses back; false emits one RMSNorm and one Rotary
// node each (a model written with fused kernels, e.g. Liger or apex). With it, "use_cache"
// (HF's config default: true) adds DynamicCache.update's torch.cat of k and v onto the empty
// fp32 cache, which eager runs even in training: it makes k and v fp32 before attention.
// "attention": "sdpa" (default) is one flash kernel; "eager" is HF's eager_attention_forward
// (engine/models/eager_attention.h): repeat_kv copies, q.k^T, scale, causal mask, softmax
// in fp32 cast back to the query's dtype, dropout ("attention_dropout", HF's default 0: no
// Dropout), .v. graph_level 3 fuses it back into one flash kernel.
#include "engine/models/causal_lm_head.h"
#include "engine/models/config_reader.h"
#include "engine/models/eager_attention.h"
#include "engine/models/graph_builder.h"
#include "engine/models/hf_eager_ops.h"
#include "engine/models/model_partition.h"
#include "engine/models/model_zoo.h"

namespace npu::engine {

Expected<Graph> buildLlama(const nlohmann::json& config, const ZooShape& shape) {
    ConfigReader cfg(config, "model.config");
    const auto hidden = cfg.positiveInt("hidden");
    const auto ffn = cfg.positiveInt("ffn");
    const auto layers = cfg.positiveInt("layers");
    const auto heads = cfg.positiveInt("heads");
    const auto kvHeads = cfg.positiveInt("kv_heads", heads);
    const auto vocab = cfg.positiveInt("vocab");
    const bool tied = cfg.boolean("tie_embeddings", false);
    // Rotary needs no position table, but a model trained up to max_seq is not run longer.
    const auto maxSeq = cfg.positiveInt("max_seq", 0);
    const bool hf = cfg.boolean("hf_eager_ops", true);
    const bool useCache = cfg.boolean("use_cache", true) && hf;
    const bool eager = cfg.choice("attention", {"sdpa", "eager"}, "sdpa") == "eager";
    const double attnDropout = cfg.probability("attention_dropout", 0);
    const ModelPartition part = ModelPartition::read(cfg);
    if (auto s = cfg.finish(); !s) return s.error();
    if (layers > kMaxModelLayers) return makeError(tooManyLayers(layers));
    if (maxSeq > 0 && shape.seq > maxSeq)
        return makeError("training.seq: " + std::to_string(shape.seq) + " exceeds model.config.max_seq " + std::to_string(maxSeq));
    if (hidden % heads != 0) return makeError("model.config.heads: " + std::to_string(heads) + " does not divide hidden " + std::to_string(hidden));
    if (heads % kvHeads != 0) return makeError("model.config.kv_heads: " + std::to_string(kvHeads) + " does not divide heads " + std::to_string(heads));
    const auto headDim = hidden / heads;
    std::optional<Error> shardError;
    const auto headsR = part.shard(heads, "heads", shardError), kvHeadsR = part.shard(kvHeads, "kv_heads", shardError);
    const auto ffnR = part.shard(ffn, "ffn", shardError);
    const auto vocabR = (vocab + part.tensorParallel - 1) / part.tensorParallel;  // Megatron pads the vocabulary
    if (shardError) return *shardError;
    const auto B = shape.batch, S = shape.seq;

    GraphBuilder b("llama");
    int embedW = -1, x = -1;
    if (part.embedding) {
        const int ids = b.input("input_ids", {B, S}, DType::i64);
        embedW = b.weight("embed_tokens.weight", {vocabR, hidden});
        x = part.scatterSequence(b, b.op(OpKind::Embedding, "embed_tokens", {ids, embedW}), "embed_tokens.sp_scatter");
    } else {
        x = addStageInput(b, B, part.localSeq(S), hidden);
    }
    Attributes attnAttrs{{"heads", headsR}, {"kv_heads", kvHeadsR}, {"causal", std::int64_t{1}}};
    if (attnDropout > 0) attnAttrs["dropout"] = attnDropout;
    const int causalMask = eager ? addCausalMaskBuffer(b, S, "causal_mask") : -1;
    const EagerAttentionShape eagerShape{.heads = headsR, .kvHeads = kvHeadsR, .headDim = headDim, .dropout = attnDropout, .softmaxFp32 = true};
    const Attributes ropeAttrs{{"head_dim", headDim}};
    // LlamaRotaryEmbedding's per-step cos/sin tables (fp32, [S, 1, head_dim] broadcast over heads).
    const int cosT = hf ? b.buffer("rotary_emb.cos", {S, 1, headDim}) : -1;
    const int sinT = hf ? b.buffer("rotary_emb.sin", {S, 1, headDim}) : -1;
    auto norm = [&](int in, const std::string& name, int w) { return hf ? addHfRmsNorm(b, in, w, name) : b.op(OpKind::RMSNorm, name, {in, w}); };
    for (std::int64_t i = 0; i < layers; ++i) {
        const std::string p = "layers." + std::to_string(i) + ".";
        b.setBlock("layers." + std::to_string(i));
        const int n1 = part.gatherSequence(b, norm(x, p + "input_layernorm", b.weight(p + "input_layernorm.weight", {hidden})), p + "attn.sp_gather");
        const int q = b.op(OpKind::Linear, p + "attn.q_proj", {n1, b.weight(p + "attn.q_proj.weight", {headsR * headDim, hidden})});
        const int k = b.op(OpKind::Linear, p + "attn.k_proj", {n1, b.weight(p + "attn.k_proj.weight", {kvHeadsR * headDim, hidden})});
        const int v = b.op(OpKind::Linear, p + "attn.v_proj", {n1, b.weight(p + "attn.v_proj.weight", {kvHeadsR * headDim, hidden})});
        const int qr = hf ? addHfRotary(b, q, cosT, sinT, headsR, headDim, p + "attn.rotary_q") : b.op(OpKind::Rotary, p + "attn.rotary_q", {q}, ropeAttrs);
        int kr = hf ? addHfRotary(b, k, cosT, sinT, kvHeadsR, headDim, p + "attn.rotary_k") : b.op(OpKind::Rotary, p + "attn.rotary_k", {k}, ropeAttrs);
        int vc = v;
        if (useCache) {
            const int empty = b.buffer(p + "attn.cache_empty", {B, 0, kvHeadsR * headDim});
            kr = b.op(OpKind::Concat, p + "attn.cache_k", {empty, kr}, {{"axis", std::int64_t{1}}});
            vc = b.op(OpKind::Concat, p + "attn.cache_v", {empty, v}, {{"axis", std::int64_t{1}}});
        }
        const int a = eager ? addEagerAttention(b, qr, kr, vc, causalMask, eagerShape, p + "attn.eager")
                            : b.ops(OpKind::ScaledDotProductAttention, p + "attn.sdpa", {qr, kr, vc}, attnAttrs, 2)[0];
        const int o = b.op(OpKind::Linear, p + "attn.o_proj", {a, b.weight(p + "attn.o_proj.weight", {hidden, headsR * headDim})});
        x = b.op(OpKind::Add, p + "attn.residual", {x, part.scatterSequence(b, o, p + "attn.sp_scatter")});
        const int n2 = part.gatherSequence(b, norm(x, p + "post_attention_layernorm", b.weight(p + "post_attention_layernorm.weight", {hidden})),
                                           p + "mlp.sp_gather");
        const int g = b.op(OpKind::Linear, p + "mlp.gate_proj", {n2, b.weight(p + "mlp.gate_proj.weight", {ffnR, hidden})});
        const int u = b.op(OpKind::Linear, p + "mlp.up_proj", {n2, b.weight(p + "mlp.up_proj.weight", {ffnR, hidden})});
        const int act = b.op(OpKind::SiLU, p + "mlp.act", {g});
        const int m = b.op(OpKind::Mul, p + "mlp.mul", {act, u});
        const int d = b.op(OpKind::Linear, p + "mlp.down_proj", {m, b.weight(p + "mlp.down_proj.weight", {hidden, ffnR})});
        x = b.op(OpKind::Add, p + "mlp.residual", {x, part.scatterSequence(b, d, p + "mlp.sp_scatter")});
    }
    b.setBlock("");
    if (!part.lmHead) {
        addStageOutput(b, x);
        return b.finish();
    }
    const int labels = b.input("labels", {B, S}, DType::i64);
    const int nf = part.gatherSequence(b, norm(x, "norm", b.weight("norm.weight", {hidden})), "norm.sp_gather");
    // A last pipeline stage keeps its own copy of a tied embedding (Megatron-LM).
    const int headW = tied && embedW >= 0 ? embedW : b.weight("lm_head.weight", {vocabR, hidden});
    addCausalLmHeadAndLoss(b, nf, headW, labels);
    return b.finish();
}

}  // namespace npu::engine
