// presets.cpp — the built-in presets (see presets.h). The numbers come from the
// tutorials in shared/seeds/; “Transformer Neural Networks - Understanding”'s k₄ and v are reconstructed by
// scripts/reconstruct_seed002.py (its printout truncates k and never shows v).
#include "io/presets.h"

#include <utility>

#include "io/builtin_models.h"

namespace ew {

namespace {

// A shipped model's training command: the arguments `encoder-walkthrough train --out` wrote
// into its file's __metadata__ ("training", from the recipe table of core/train/recipe.h), read
// at build time (builtin_models.h: the page's builds carry no model bytes until one is used), so
// a preset quotes exactly what scripts/train-models.sh ran (tests/test_recipe.cpp ties the
// two). Empty when the file has none.
std::string trained_with(const char* name) {
  for (const BuiltinModel& b : builtin_models())
    if (std::string(b.name) == name) return b.training;
  return "";
}

// A preset that opens on `step` of batch item `batch` (a trained model's: `training`).
Preset preset(const char* name, const char* title, std::string description, const char* source,
              const char* model_json, const char* step = "", int batch = 0, std::string training = "") {
  return Preset{name, title, std::move(description), source, model_json, step, batch, std::move(training)};
}

}  // namespace

const std::vector<Preset>& presets() {
  static const std::vector<Preset> all = [] {
    const std::string number_words = trained_with("number-words"), dates = trained_with("dates"),
                      brackets = trained_with("brackets"), masked_words = trained_with("masked-words");
    return std::vector<Preset>{
        preset("default", "In the bleak midwinter",
         "The page's default: the sentence of “Transformers: Walking Through the Encoder Forward Pass” through a small encoder (d_model 8, 2 heads) and one decoder layer, every weight seeded.",
         "Transformers: Walking Through the Encoder Forward Pass",
         R"json({"config":{"d_model":8,"num_heads":2,"d_ff":32,"num_layers":1,"norm":"post","activation":"relu","layer_norm_eps":1e-05,"causal":false,"positional":"sinusoidal","scale":true,"seed":66,"tokenizer":"regex","decoder_layers":1},"text":"in the bleak midwinter"})json"),
        preset("seed000-d300", "d = 300, one head (Encoder Forward Pass)",
         "The encoder of “Transformers: Walking Through the Encoder Forward Pass” exactly as its notebook builds it: whitespace tokens, d = 300, a single head, d_ff = 4d = 1200, ReLU, post-norm, LayerNorm ε = 1e-6, no positional encoding. The notebook's weights came from TensorFlow's random generator and are printed only in part, so these weights are seeded instead: the procedure and every shape match, the random numbers cannot.",
         "Transformers: Walking Through the Encoder Forward Pass",
         R"json({"config":{"d_model":300,"num_heads":1,"d_ff":1200,"num_layers":1,"norm":"post","activation":"relu","layer_norm_eps":1e-06,"positional":"none","scale":true,"seed":66,"tokenizer":"whitespace"},"text":"in the bleak midwinter"})json",
         "layer0.head0.weights"),
        preset("seed000-softmax", "Its printed scores through softmax (Encoder Forward Pass)",
         "“Transformers: Walking Through the Encoder Forward Pass” prints its 4×4 scaled attention scores in full. With X = I and W_K = I, the scores are exactly W_Q, so this model feeds the notebook's printed scores into the softmax (scaling off: they are already scaled). The weights step shows the notebook's printed normalized attention.",
         "Transformers: Walking Through the Encoder Forward Pass",
         R"json({"config":{"d_model":4,"num_heads":1,"d_ff":16,"num_layers":1,"positional":"none","scale":false,"seed":66},"input":[[1.0,0.0,0.0,0.0],[0.0,1.0,0.0,0.0],[0.0,0.0,1.0,0.0],[0.0,0.0,0.0,1.0]],"layers":[{"W_q":[[0.00263519,-0.00174089,-0.00037623,-0.00035859],[0.00236044,0.00206439,0.00187134,0.00241708],[-0.00104838,0.00487237,-0.00182653,0.00039156],[0.00036275,0.00206183,-0.00057808,0.00099374]],"W_k":[[1.0,0.0,0.0,0.0],[0.0,1.0,0.0,0.0],[0.0,0.0,1.0,0.0],[0.0,0.0,0.0,1.0]]}]})json",
         "layer0.head0.weights"),
        preset("seed001-attention-3x3", "3×3 attention by hand (Fundamental Concepts)",
         "The worked example of “Transformers - Fundamental Concepts with Python Implementation”: queries [[1,0,1],[0,1,0],[1,1,0]], keys [[1,1,1],[0,1,0],[1,0,1]], values [[1,2,3],[4,5,6],[7,8,9]], softmax of the raw dot products (no scaling). With X = I the projections are the weight matrices themselves.",
         "Transformers - Fundamental Concepts with Python Implementation",
         R"json({"config":{"d_model":3,"num_heads":1,"d_ff":12,"num_layers":1,"positional":"none","scale":false,"seed":66},"input":[[1.0,0.0,0.0],[0.0,1.0,0.0],[0.0,0.0,1.0]],"layers":[{"W_q":[[1,0,1],[0,1,0],[1,1,0]],"W_k":[[1,1,1],[0,1,0],[1,0,1]],"W_v":[[1,2,3],[4,5,6],[7,8,9]]}]})json",
         "layer0.head0.weights"),
        preset("seed001-despite", "“Despite the heavy rain…” (Fundamental Concepts)",
         "The learn-by-example of “Transformers - Fundamental Concepts with Python Implementation”: its regex tokenizer, its 4-dimensional embedding table and its W_Q, W_K, W_V. The tutorial multiplies column vectors (Q = W_Q x); in this page's row convention (Q = X W) the matrices appear transposed, and the numbers are the same: Q for “Despite” is [0.27, 0.63, 0.99, 1.35], and its raw scores with “the”, “heavy” and itself are 0.684, 1.4976 and 1.6848.",
         "Transformers - Fundamental Concepts with Python Implementation",
         R"json({"config":{"d_model":4,"num_heads":1,"d_ff":16,"num_layers":1,"positional":"none","scale":true,"seed":66,"tokenizer":"regex"},"text":"Despite the heavy rain, the children played happily in the park, unaware of the approaching storm.","vocab":["Despite","the","heavy","rain",",","children","played","happily","in","park","unaware","of","approaching","storm","."],"embedding":[[0.2,-0.1,0.5,0.3],[0.1,0.0,-0.1,0.4],[-0.3,0.8,0.1,0.2],[0.4,0.3,-0.2,0.1],[0,0,0,0],[0.5,0.2,0.6,-0.1],[0.3,0.1,0.4,0.7],[-0.2,0.5,-0.3,0.4],[0.1,-0.3,0.2,0.5],[0.4,0.6,0.1,-0.4],[0.2,0.7,-0.5,0.1],[0.1,0.0,0.3,-0.2],[0.3,0.4,0.6,0.2],[0.5,-0.1,0.4,0.3],[0,0,0,0]],"layers":[{"W_q":[[0.1,0.5,0.9,1.3],[0.2,0.6,1.0,1.4],[0.3,0.7,1.1,1.5],[0.4,0.8,1.2,1.6]],"W_k":[[1.6,1.2,0.8,0.4],[1.5,1.1,0.7,0.3],[1.4,1.0,0.6,0.2],[1.3,0.9,0.5,0.1]],"W_v":[[0.1,-0.5,0.9,-1.3],[-0.2,0.6,-1.0,1.4],[0.3,-0.7,1.1,-1.5],[-0.4,0.8,-1.2,1.6]]}]})json",
         "layer0.head0.scores"),
        preset("seed001-bpe", "Byte-pair encoding (Fundamental Concepts)",
         "The BPE of “Transformers - Fundamental Concepts with Python Implementation”: five merges learned on the corpus low, lowest, newer, wider, printed merge by merge, then used to split the sentence into subwords.",
         "Transformers - Fundamental Concepts with Python Implementation",
         R"json({"config":{"d_model":8,"num_heads":2,"d_ff":32,"num_layers":1,"tokenizer":"bpe","bpe_merges":5,"seed":66},"text":"lowest newer wider low","bpe_corpus":"low,lowest,newer,wider"})json",
         "token_ids"),
        preset("seed002-causal", "Causal mask (Neural Networks - Understanding)",
         "“I love you so much” from “Transformer Neural Networks - Understanding”: q and k as printed (5×10), scaled by √10, causal mask, softmax. With X = I (first 5 rows), Q and K are the weight rows. Rows 0-3 of the weights need only the printed q and k₀…k₃. The notebook's printout of k stops after k₄[0] and v is never printed: k₄ is the minimum-norm vector matching the printed scores, and v = weights⁻¹·output from the printed weights and output (scripts/reconstruct_seed002.py), so row 4 and the outputs match the notebook to its 4 printed decimals.",
         "Transformer Neural Networks - Understanding",
         R"json({"config":{"d_model":10,"num_heads":1,"d_ff":40,"num_layers":1,"positional":"none","scale":true,"causal":true,"seed":66},"input":[[1.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0],[0.0,1.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0],[0.0,0.0,1.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0],[0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,0.0,0.0],[0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,0.0]],"layers":[{"W_q":[[-0.9396,-0.761,-0.7723,0.2179,0.314,-0.2625,-0.8789,0.6244,-0.5245,1.2776],[-0.7042,0.127,1.6283,-1.5839,1.0607,-0.1741,-0.5154,1.023,-0.022,1.5466],[2.434,3.1458,-1.2979,-1.6841,-0.2796,1.7375,-0.3538,0.6227,-0.9432,0.9826],[-0.4292,0.4479,0.2516,-0.1197,0.3054,-0.7416,1.0121,-1.2222,-0.2376,-2.1837],[-0.6403,0.3252,0.0717,0.9909,-0.8243,-0.3065,-0.0571,-0.5463,-0.5385,0.386],[0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0],[0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0],[0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0],[0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0],[0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0]],"W_k":[[0.253,0.7966,-0.2162,-1.2275,-0.7208,0.206,0.6973,1.0014,-0.1323,-0.5996],[-1.8674,0.7221,0.1546,-1.6387,-1.7548,0.6751,-0.9566,1.4463,-1.7166,0.9057],[0.2133,0.4005,-0.7649,-1.1516,-0.174,0.8551,-0.5812,0.7501,-0.3315,0.2571],[0.345,-0.1597,-1.0515,0.2874,-1.3148,0.5086,-0.1085,1.4433,-0.5419,-1.5695],[0.331,-0.877482,0.470077,1.352078,-0.522721,-0.850491,-0.056271,-0.531458,-0.16853,0.217],[0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0],[0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0],[0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0],[0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0],[0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0]],"W_v":[[0.3206,-0.8451,-1.4655,0.0448,-0.7504,-0.4821,-0.3502,1.9636,0.7334,0.6107],[-0.296269,0.61642,-0.140029,-1.163206,-0.155094,-1.212741,0.827427,-1.317315,0.640953,-1.450296],[0.895966,0.077685,-0.244096,-1.270423,0.773132,0.542036,0.203589,0.900637,0.464682,-1.253588],[0.761304,1.984771,-0.259469,0.691666,0.783829,-0.404955,1.103333,-1.205795,-0.285445,-0.124714],[1.212759,-0.050339,0.668058,0.482549,1.478071,-0.255384,0.209183,0.364643,0.477537,-0.522596],[0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0],[0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0],[0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0],[0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0],[0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0]]}]})json",
         "layer0.head0.weights"),
        preset("seed003-y2", "Computing y₂ by hand (Math Behind Self Attention)",
         "The four vectors of “Transformers: Walking Through the Math Behind Self Attention”: x₁…x₄ and its W_q, W_k, W_v (column convention q = W_q x, so transposed here), raw dot products (no scaling). Row 2 of the weighted sum is the notebook's y₂ = [0.11782318, 0.39491105, −2.4440105, 0.5687822]. (The notebook prints w₂₃ and w₂₄ wrongly, as the raw scores; the weights step shows their real values.)",
         "Transformers: Walking Through the Math Behind Self Attention",
         R"json({"config":{"d_model":4,"num_heads":1,"d_ff":16,"num_layers":1,"positional":"none","scale":false,"seed":66},"input":[[-0.20886648,0.5476398,0.72447395,-1.1310507],[0.1870852,-1.3414632,-1.1067361,-1.3406332],[-1.4844604,0.60378075,0.39966342,-0.7903915],[-0.39180905,-1.2203115,1.0298591,-0.23658466]],"layers":[{"W_q":[[0.0558263,0.44502732,0.8664166,-0.52701306],[-1.7287809,2.3946028,0.14898889,0.6796619],[0.06325671,-0.7817421,-1.2681427,0.95935136],[0.8925434,-0.5631514,-1.3942317,-0.8240369]],"W_k":[[1.4865062,-0.36981565,1.5218863,0.4551281],[0.53539854,-0.43839103,-1.1896831,-1.190138],[0.707822,0.06208184,0.3180406,1.8135393],[-0.3496642,-0.34790948,1.2518362,0.6393279]],"W_v":[[-1.9406502,0.8450196,1.1703489,0.40726846],[0.35411984,-0.21295227,1.7554591,-0.44613966],[-0.59085363,2.219851,1.4085048,-0.89044726],[-0.40704426,-0.58515114,-0.09804194,0.1120782]]}]})json",
         "layer0.head0.context"),
        preset("seed004-bert", "BERT-style, 5 tokens, d = 4 → d_k = 2 (Transformer Anatomy)",
         "“Transformer Anatomy”: 5 tokens of d = 4, two heads so each head projects 5×4 to 5×2 and scales by √2; BERT-style learned position embeddings added to the token embeddings, then LayerNorm; pre-norm layers with GELU; and a classification head on the first token. Weights are seeded (the tutorial prints none).",
         "Transformer Anatomy",
         R"json({"config":{"d_model":4,"num_heads":2,"d_ff":16,"num_layers":2,"norm":"pre","activation":"gelu","layer_norm_eps":1e-12,"positional":"learned","scale":true,"seed":4,"num_labels":2},"text":"Time flies like an arrow"})json",
         "layer0.head0.scaled"),
        preset("trained-number-words", "Trained: number words → digits",
         std::string("A model this project trained itself (scripts/train-models.sh: encoder-walkthrough train ") + number_words + ") on generated English number words 0–999,999 to turn them into digits. This number was held out: the model never saw it in training. In cross-attention, while producing each digit the decoder looks at the word that says it. The decoder reads <s> and the answer (teacher forcing); each row of the output predicts the next digit, the last one </s>.",
         "",
         R"json({"weights":"builtin:number-words","text":"six hundred ninety three thousand nine hundred twenty five","target":"6 9 3 9 2 5"})json",
         "decoder0.cross.head0.weights", 0, number_words),
        preset("trained-dates", "Trained: a date → yyyy-mm-dd",
         std::string("A model this project trained itself (scripts/train-models.sh: encoder-walkthrough train ") + dates + ") on generated dates of 1900–2099 written four ways (23 November 2026, November 23, 2026, 23 Nov 2026, 23/11/2026) to turn them into ISO dates. It reads text with the regex tokenizer of “Transformers - Fundamental Concepts with Python Implementation”: this date is July, 21, \",\", 1980 and the answer 1980-07-21 is 1980, 07, 21. This date was held out: the model never saw it in training, in any spelling. The output reorders the input, so in cross-attention the alignment crosses: producing 1980 the decoder looks at the last token, 07 at July, 21 mostly at 21.",
         "",
         R"json({"weights":"builtin:dates","text":"July 21, 1980","target":"1980-07-21"})json",
         "decoder0.cross.head0.weights", 0, dates),
        preset("trained-brackets", "Trained: are the brackets balanced?",
         std::string("An encoder-only classifier this project trained itself (scripts/train-models.sh: encoder-walkthrough train ") + brackets + ") on generated bracket strings of length 2–24 to tell balanced ones from unbalanced ones, including hard negatives that have as many ( as ) and start and end right — as this one does, yet it closes one bracket too early. This string was held out: the model never saw it in training. The label is read from the first token's output.",
         "",
         R"json({"weights":"builtin:brackets","text":"( ( ) ( ) ) ) ( ( )","label":"unbalanced"})json",
         "cls.probs", 0, brackets),
        preset("trained-masked-words", "Trained: fill in the [MASK]",
         std::string("An encoder this project trained itself (scripts/train-models.sh: encoder-walkthrough train ") + masked_words + ") to guess masked words of the State of the Union addresses (public domain), BERT-style. Its vocabulary is the byte-pair encoding of “Transformers - Fundamental Concepts with Python Implementation”, learned on that corpus (2,000 merges, carried in the model). This sentence is from an address the model never saw. Each token's output is scored against the token table (the same weights as the embedding) and the softmax row of the [MASK] is its guess; the right word here is united.",
         "",
         R"json({"weights":"builtin:masked-words","text":"it has been duly recognized by the [MASK] states ."})json",
         "mlm.probs", 0, masked_words),
        preset("padding-batch", "Two sentences: the padding mask",
         "Two sentences of different length in one batch: the shorter is padded with <pad>, and the mask stops every query from attending to the padding.",
         "",
         R"json({"config":{"d_model":8,"num_heads":2,"d_ff":32,"num_layers":1,"seed":66},"text":"in the bleak midwinter frosty wind made moan","text2":"earth stood hard as iron"})json",
         "layer0.head0.scaled", 1),
    };
  }();
  return all;
}

const Preset* find_preset(const std::string& name) {
  for (const Preset& p : presets())
    if (p.name == name) return &p;
  return nullptr;
}

}  // namespace ew
