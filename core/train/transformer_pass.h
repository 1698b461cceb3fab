// One forward pass of the encoder-decoder over a padded batch, keeping every activation its
// backward pass needs (the llm.c way: each layer's *_forward fills a cache its *_backward reads).
// B pairs, S source and T target positions; rows are pair-major (row b·S + s).
#pragma once

#include "config.h"
#include "tensor.h"
#include "train/batched_attention.h"
#include "train/gradients.h"
#include "train/train_options.h"
#include "weights.h"

#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace attnlab {

class TransformerPass {
public:
    // training == nullptr: inference, without dropout or ablation. The config must be encoder_decoder,
    // and ids and lengths are the caller's to check (asserted here).
    TransformerPass(const ModelConfig& config, const Weights& weights, const TrainOptions* training);

    // src (B, S) ids -> memory (B·S, C): the encoder stack's output.
    Tensor encode(const std::vector<int>& src, int S);
    // memory (B·S, C) of src (B, S), tgt_in (B, T) -> logits (B·T, V). B may differ from encode's
    // (e.g. beam hypotheses sharing one source), as long as memory and src match tgt_in.
    Tensor decode(const Tensor& memory, const std::vector<int>& src, int S, const std::vector<int>& tgt_in, int T);

    // After one encode and one decode of the same batch: dlogits (B·T, V) -> every parameter's
    // gradient, added into grads (see zero_gradients), the disagreement penalty's included.
    void backward(const Tensor& dlogits, Gradients& grads);

    // The disagreement penalty of the last encode and decode, to add to the loss: Σ over the attentions of
    // λ · across_heads / rows + μ · across_queries / row_pairs (attention_overlap; λ and μ are
    // TrainOptions::head_disagreement and query_disagreement; 0 without them).
    double penalty() const { return penalty_; }

    // After encode and decode: each attention's site and its weights (B, H, Tq, Tk), in the order they ran
    // (the encoder's layers, then each decoder layer's self- and cross-attention). Valid until the next encode.
    std::vector<std::pair<AttentionSite, const Tensor*>> attention_weights() const;

private:
    enum class SublayerKind { self_attention, cross_attention, feed_forward };
    struct Sublayer {
        Sublayer(SublayerKind kind_, std::string layer_, int k_, AttentionSite site_)
            : kind(kind_), layer(std::move(layer_)), k(k_), site(site_) {}
        SublayerKind kind;
        std::string layer;   // the parameters' prefix: "decoder.layers.1"
        int k = 1;           // its norm is layer.norm{k}
        AttentionSite site;  // attention sublayers: which attention, for the ablated heads
        Tensor norm_input;   // post-LN: x + Sublayer(x); pre-LN: x    (N, C)
        Tensor drop_mask;    // 0 or 1/(1−p) per entry, empty without dropout
        AttentionCache attention;
        OverlapScales overlap;  // λ / rows and μ / row_pairs of the disagreement penalty, 0 without it
        Tensor ffn_in, ffn_hidden, ffn_activation;  // (N, C), (N, F), (N, F)
    };
    struct Stack {
        std::vector<int> ids;    // (B, L) this stack's tokens
        int L = 0;               // S or T
        Tensor embed_drop_mask;  // (B·L, C) or empty
        std::vector<Sublayer> sublayers;
        Tensor final_norm_input;  // (B·L, C), empty without a final norm
    };

    Tensor embed(Stack& stack, const std::string& table);
    Tensor sublayer_forward(Sublayer& s, const Tensor& x, const AttentionShape& shape, const KeyVisibility& visibility,
                            const Tensor* memory);
    Tensor sublayer_function_forward(Sublayer& s, const Tensor& in, const AttentionShape& shape,
                                     const KeyVisibility& visibility, const Tensor* memory);
    Tensor sublayer_backward(Sublayer& s, const Tensor& dy, const AttentionShape& shape, Tensor* dmemory,
                             Gradients& grads);
    Tensor final_norm_forward(Stack& stack, const std::string& norm, Tensor x);
    Tensor final_norm_backward(const Stack& stack, const std::string& norm, const Tensor& dy, Gradients& grads);
    void embed_backward(const Stack& stack, const std::string& table, const Tensor& dx, Gradients& grads);
    void dropout(Tensor& x, Tensor& mask);
    const std::set<int>& ablated(const AttentionSite& site) const;
    std::string attention_params(const Sublayer& s) const;

    const ModelConfig& config_;
    const Weights& weights_;
    const TrainOptions* training_;
    const std::set<int> no_heads_;  // what ablated() returns when nothing is ablated
    std::mt19937_64 rng_;
    Stack encoder_, decoder_;
    Tensor decoder_output_;  // the generator's input (B·T, C)
    Tensor memory_;          // what decode attended to (B·S, C)
    double penalty_ = 0.0;   // see penalty()
    int B_ = 0;              // pairs in the decoded batch
};

}  // namespace attnlab
