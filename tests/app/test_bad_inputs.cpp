// Bad input through the session, the way the app meets it: every kind of broken file, id and
// text is refused with a one-line message, and the session keeps its last good model, inputs
// and trace, untouched.
#include "io/model_file.h"
#include "io/safetensors.h"
#include "session.h"
#include "session_support.h"
#include "text/utf8.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <random>
#include <set>

using namespace attnlab;
using namespace attnlab::gui;
namespace fs = std::filesystem;

using attnlab::gui::test::words;

namespace {

Model small_model(uint64_t seed) {
    auto m = make_random_model("tiny", seed, words({"i", "like", "red", "apples"}), words({"나", "는", "사과", "를"}),
                               TokenizerKind::word);
    REQUIRE(m);
    return std::move(*m);
}

// The last good state: a session with a model, a sentence on both sides, a mask edit and a
// switched-off head, so that a half-applied command would show.
Session good_session() {
    auto s = Session::from_model(small_model(5), "good model", "i like red apples", "나 는 사과");
    if (!s) FAIL(s.error().message);
    REQUIRE(s->toggle_mask_cell(AttentionUse::encoder_self, 0, 1));
    REQUIRE(s->toggle_head({AttentionUse::cross, 0}, 2));
    return std::move(*s);
}

// A directory of its own under the system temp directory, removed afterwards.
struct TempDir {
    fs::path path = fs::temp_directory_path() / ("attnlab_bad_inputs_" + std::to_string(::getpid()));
    TempDir() { fs::create_directories(path); }
    ~TempDir() { fs::remove_all(path); }
    std::string file(const std::string& name) const { return (path / name).string(); }
};

void write_bytes(const std::string& path, const std::vector<uint8_t>& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    REQUIRE(out.good());
}

std::vector<uint8_t> model_bytes(const Model& m) { return io::serialize_safetensors(io::model_to_safetensors(m)); }

// The same file with its JSON header changed by `edit`; the data buffer is kept as it is.
template <class Edit>
std::vector<uint8_t> with_header(const std::vector<uint8_t>& bytes, Edit edit) {
    uint64_t n = 0;
    for (int i = 7; i >= 0; --i) n = (n << 8) | bytes[static_cast<size_t>(i)];
    nlohmann::json header = nlohmann::json::parse(bytes.begin() + 8, bytes.begin() + 8 + static_cast<int64_t>(n));
    edit(header);
    std::string text = header.dump();
    text.append((8 - text.size() % 8) % 8, ' ');
    std::vector<uint8_t> out;
    for (int i = 0; i < 8; ++i) out.push_back(static_cast<uint8_t>(static_cast<uint64_t>(text.size()) >> (8 * i)));
    out.insert(out.end(), text.begin(), text.end());
    out.insert(out.end(), bytes.begin() + 8 + static_cast<int64_t>(n), bytes.end());
    return out;
}

// Everything the user can see of a session, to compare before and after a refused command.
struct Snapshot {
    std::string model_name, src_text, tgt_text;
    ModelConfig config;
    std::vector<int> src_ids, tgt_ids;
    std::vector<std::string> src_labels, tgt_labels;
    std::map<std::string, std::shared_ptr<const Tensor>> weights;
    std::map<AttentionUse, MaskOverrides> mask_overrides;
    std::map<AttentionSite, std::set<int>> ablated_heads;
    std::vector<std::string> src_vocab;
    size_t cursor = 0;
    uint64_t model_serial = 0;
    std::vector<uint64_t> versions;
    std::vector<Tensor> values;
};

Snapshot snapshot(const Session& s) {
    Snapshot p;
    p.model_name = s.model_name(), p.src_text = s.src_text(), p.tgt_text = s.tgt_text();
    p.config = s.stepper().config();
    p.src_ids = s.stepper().inputs().src_ids, p.tgt_ids = s.stepper().inputs().tgt_ids;
    p.src_labels = s.source().labels, p.tgt_labels = s.target().labels;
    p.weights = s.stepper().weights().all();
    p.mask_overrides = s.stepper().inputs().mask_overrides;
    p.ablated_heads = s.stepper().inputs().ablated_heads;
    if (s.model().src_vocab) p.src_vocab = s.model().src_vocab->tokens();
    p.cursor = s.stepper().cursor();
    p.model_serial = s.model_serial();
    for (const Step& step : s.stepper().steps()) {
        const TraceEntry* e = s.stepper().entry(step.path);
        p.versions.push_back(e ? e->version : 0);
        p.values.push_back(e ? e->value : Tensor{});
    }
    return p;
}

bool same_bits(const Tensor& a, const Tensor& b) {
    return a.shape == b.shape && std::memcmp(a.data.data(), b.data.data(), a.data.size() * sizeof(float)) == 0;
}

// `ok` is a command's result: it must have failed with a one-line, UTF-8 message that contains
// `expected`, and left the session exactly as `before`.
void require_refused(bool ok, const Session& s, const Snapshot& before, const std::string& expected) {
    INFO("error: " << s.error());
    CHECK_FALSE(ok);
    CHECK_FALSE(s.error().empty());
    CHECK(s.error().find('\n') == std::string::npos);
    CHECK(s.error().find('\r') == std::string::npos);
    CHECK(is_valid_utf8(s.error()));
    CHECK_THAT(s.error(), Catch::Contains(expected));

    const Snapshot now = snapshot(s);
    CHECK(now.model_name == before.model_name);
    CHECK(now.src_text == before.src_text);
    CHECK(now.tgt_text == before.tgt_text);
    CHECK(now.config == before.config);
    CHECK(now.src_ids == before.src_ids);
    CHECK(now.tgt_ids == before.tgt_ids);
    CHECK(now.src_labels == before.src_labels);
    CHECK(now.tgt_labels == before.tgt_labels);
    CHECK(now.weights == before.weights);  // the very same tensors, not copies
    CHECK(now.mask_overrides == before.mask_overrides);
    CHECK(now.ablated_heads == before.ablated_heads);
    CHECK(now.src_vocab == before.src_vocab);
    CHECK(now.cursor == before.cursor);
    CHECK(now.model_serial == before.model_serial);
    REQUIRE(now.versions.size() == before.versions.size());
    CHECK(now.versions == before.versions);  // nothing was recomputed
    for (size_t i = 0; i < now.values.size(); ++i) {
        INFO(s.stepper().step(i).path);
        CHECK(same_bits(now.values[i], before.values[i]));
    }
}

}  // namespace

TEST_CASE("model files that cannot be opened leave the session as it was", "[bad_input]") {
    TempDir dir;
    Session s = good_session();
    const Snapshot before = snapshot(s);
    const std::vector<uint8_t> good = model_bytes(small_model(9));  // a different model: replacing would show

    SECTION("a missing file") {
        require_refused(s.open_model_file(dir.file("nope.safetensors")), s, before, "no such file");
    }
    SECTION("a folder that is no model") {
        require_refused(s.open_model_file(dir.path.string()), s, before, "a folder without config.json");
    }
    SECTION("an empty file") {
        write_bytes(dir.file("empty.safetensors"), {});
        require_refused(s.open_model_file(dir.file("empty.safetensors")), s, before, "too short");
    }
    SECTION("random bytes") {
        std::mt19937 rng(11);
        std::vector<uint8_t> noise(4096);
        for (auto& b : noise) b = static_cast<uint8_t>(rng());
        write_bytes(dir.file("noise.safetensors"), noise);
        require_refused(s.open_model_file(dir.file("noise.safetensors")), s, before, "noise.safetensors");
        noise[0] = 200;  // a plausible header length, then noise where the JSON should be
        for (int i = 1; i < 8; ++i) noise[static_cast<size_t>(i)] = 0;
        write_bytes(dir.file("noise.safetensors"), noise);
        require_refused(s.open_model_file(dir.file("noise.safetensors")), s, before, "not valid JSON");
    }
    SECTION("a truncated model file, cut anywhere") {
        uint64_t header_64 = 0;
        for (int i = 7; i >= 0; --i) header_64 = (header_64 << 8) | good[static_cast<size_t>(i)];
        const auto header = static_cast<size_t>(header_64);  // size_t is 32 bits in WebAssembly
        for (const size_t cut : {size_t{4}, size_t{8}, size_t{8 + header / 2}, size_t{8 + header},
                                 size_t{8 + header + 100}, good.size() / 2, good.size() - 1}) {
            INFO("cut at " << cut << " of " << good.size());
            write_bytes(dir.file("cut.safetensors"),
                        std::vector<uint8_t>(good.begin(), good.begin() + static_cast<int64_t>(cut)));
            require_refused(s.open_model_file(dir.file("cut.safetensors")), s, before, "cut.safetensors");
        }
    }
    SECTION("a tensor of a dtype the reader does not take (I64)") {
        const auto bytes = with_header(good, [](nlohmann::json& h) {
            auto& e = h["encoder.layers.0.linear1.bias"];  // F32 (256): the same 1024 bytes as I64 (128)
            e["dtype"] = "I64";
            e["shape"] = {128};
        });
        write_bytes(dir.file("i64.safetensors"), bytes);
        require_refused(s.open_model_file(dir.file("i64.safetensors")), s, before, "'I64' is not supported");
    }
    SECTION("a tensor of the wrong shape") {
        const auto bytes = with_header(good, [](nlohmann::json& h) {
            h["encoder.layers.0.linear1.bias"]["shape"] = {128, 2};
        });
        write_bytes(dir.file("shape.safetensors"), bytes);
        require_refused(s.open_model_file(dir.file("shape.safetensors")), s, before,
                        "'encoder.layers.0.linear1.bias' has shape (128, 2), config needs (256,)");
    }
    SECTION("a missing tensor") {
        Model m = small_model(9);
        m.weights.erase("decoder.layers.1.norm3.weight");
        REQUIRE(io::write_model(dir.file("missing.safetensors"), m));
        require_refused(s.open_model_file(dir.file("missing.safetensors")), s, before, "decoder.layers.1.norm3.weight");
    }
    SECTION("a NaN or infinite weight") {
        for (const float bad : {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()}) {
            Model m = small_model(9);
            m.weights.set_value("decoder.layers.1.linear2.weight", 17, bad);
            REQUIRE(io::write_model(dir.file("nan.safetensors"), m));  // the writer keeps it; the reader refuses it
            require_refused(s.open_model_file(dir.file("nan.safetensors")), s, before,
                            "'decoder.layers.1.linear2.weight' holds a non-finite value");
            CHECK_THAT(s.error(), Catch::Contains("flat index 17"));
        }
    }
    SECTION("a config no model can have") {
        const auto bytes = with_header(good, [](nlohmann::json& h) {
            auto config = nlohmann::json::parse(h["__metadata__"]["config"].get<std::string>());
            config["n_heads"] = 3;  // does not divide d_model = 64
            h["__metadata__"]["config"] = config.dump();
        });
        write_bytes(dir.file("config.safetensors"), bytes);
        require_refused(s.open_model_file(dir.file("config.safetensors")), s, before, "config.safetensors");
    }
    SECTION("a vocabulary that does not fit the config") {
        const auto bytes = with_header(good, [](nlohmann::json& h) {
            h["__metadata__"]["src_vocab"] = nlohmann::json({"<pad>", "<sos>", "<eos>", "<unk>", "i"}).dump();
        });
        write_bytes(dir.file("vocab.safetensors"), bytes);
        require_refused(s.open_model_file(dir.file("vocab.safetensors")), s, before, "src_vocab has 5 tokens");
    }
    SECTION("names and tokens that would break the message onto two lines") {
        const auto extra = with_header(good, [](nlohmann::json& h) {  // an empty tensor the config does not know
            h["evil\nname"] = {{"dtype", "F32"}, {"shape", {0}}, {"data_offsets", {0, 0}}};
        });
        write_bytes(dir.file("extra.safetensors"), extra);
        require_refused(s.open_model_file(dir.file("extra.safetensors")), s, before, "evil\\x0Aname");
        const auto token = with_header(good, [](nlohmann::json& h) {
            auto v = nlohmann::json::parse(h["__metadata__"]["src_vocab"].get<std::string>());
            v[0] = "new\nline";  // where <pad> should be
            h["__metadata__"]["src_vocab"] = v.dump();
        });
        write_bytes(dir.file("token.safetensors"), token);
        require_refused(s.open_model_file(dir.file("token.safetensors")), s, before,
                        "src_vocab token 0 is \"new\\nline\", expected \"<pad>\"");
        const auto tokenizer =
            with_header(good, [](nlohmann::json& h) { h["__metadata__"]["tokenizer"] = "word\nchar"; });
        write_bytes(dir.file("tokenizer.safetensors"), tokenizer);
        require_refused(s.open_model_file(dir.file("tokenizer.safetensors")), s, before, "unknown tokenizer");
    }
    SECTION("a header that is not UTF-8") {
        std::vector<uint8_t> bytes = good;
        const std::string apples = "apples";
        auto at = std::search(bytes.begin(), bytes.end(), apples.begin(), apples.end());
        REQUIRE(at != bytes.end());
        *at = 0xFF;  // inside the source vocabulary's JSON
        write_bytes(dir.file("latin1.safetensors"), bytes);
        require_refused(s.open_model_file(dir.file("latin1.safetensors")), s, before, "not valid JSON");
    }
    SECTION("a trace file, not a model") {
        io::SafetensorsFile f;
        f.tensors["src.embed"] = *s.stepper().output("src.embed");
        f.metadata["steps"] = "[]";
        REQUIRE(io::write_safetensors(dir.file("trace.safetensors"), f));
        require_refused(s.open_model_file(dir.file("trace.safetensors")), s, before, "is this an Attention Lab model?");
    }
    SECTION("file names that would break the message onto two lines, or out of UTF-8") {
        require_refused(s.open_model_file(dir.file("two\nlines.safetensors")), s, before, "no such file");
        require_refused(s.open_model_file(dir.file("latin1-\xE9.safetensors")), s, before, "no such file");
        write_bytes(dir.file("cut\n.safetensors"), std::vector<uint8_t>(good.begin(), good.begin() + 100));
        require_refused(s.open_model_file(dir.file("cut\n.safetensors")), s, before, "header length");
    }
}

TEST_CASE("a model that cannot be saved keeps the session's name and state", "[bad_input]") {
    TempDir dir;
    Session s = good_session();
    const Snapshot before = snapshot(s);
    require_refused(s.save_model_file(dir.file("no/such/dir/m.safetensors")), s, before, "m.safetensors");
    require_refused(s.save_model_file(dir.path.string()), s, before, dir.path.string());
    require_refused(s.save_model_file(dir.file("no\nsuch/m.safetensors")), s, before, "no\\x0Asuch/m.safetensors");
}

TEST_CASE("ids outside the vocabulary, empty and over-long sequences are refused", "[bad_input]") {
    Session s = good_session();
    const Snapshot before = snapshot(s);
    const int max_len = s.stepper().config().max_len;  // 64 for the tiny preset

    require_refused(s.set_src_ids({4, 500}), s, before, "token 1 has id 500, outside the vocabulary 0..7");
    require_refused(s.set_src_ids({-1, 4}), s, before, "id -1");
    require_refused(s.set_tgt_ids({1, std::numeric_limits<int>::max()}), s, before, "outside the vocabulary");
    require_refused(s.set_src_ids({}), s, before, "source is empty");
    require_refused(s.set_tgt_ids({}), s, before, "target is empty");
    require_refused(s.set_src_ids(std::vector<int>(static_cast<size_t>(max_len) + 1, 4)), s, before,
                    "more than max_len");
    require_refused(s.set_tgt_ids(std::vector<int>(100000, 4)), s, before, "more than max_len");

    std::string long_text;
    for (int i = 0; i < max_len; ++i) long_text += "apples ";  // max_len words + <eos>
    require_refused(s.set_src_text(long_text), s, before, "65 tokens, more than max_len 64");
    require_refused(s.set_tgt_text(long_text), s, before, "more than max_len");
    std::string megabyte;
    while (megabyte.size() < (1u << 20)) megabyte += "red ";
    require_refused(s.set_src_text(megabyte), s, before, "more than max_len");

    // One word of a megabyte is one unknown token: long, but not too long.
    REQUIRE(s.set_src_text(std::string(1 << 20, 'x')));
    CHECK(s.source().labels == std::vector<std::string>{"<unk>", "<eos>"});
}

TEST_CASE("text that is not UTF-8 is refused, and the message stays UTF-8", "[bad_input]") {
    Session s = good_session();
    const Snapshot before = snapshot(s);
    for (const std::string& bad :
         {std::string("\xFF"), std::string("i like \xE3\x81"),       // a stray byte; a cut sequence
          std::string("\xC0\xAF"), std::string("red \xED\xA0\x80"),  // overlong '/'; a surrogate
          std::string("apples\xF4\x90\x80\x80")}) {                  // above U+10FFFF
        INFO("text bytes: " << bad.size());
        require_refused(s.set_src_text(bad), s, before, "invalid UTF-8");
        require_refused(s.set_tgt_text(bad), s, before, "invalid UTF-8");
    }
}

TEST_CASE("empty text is a sequence of just the special token, not an error", "[bad_input]") {
    Session s = good_session();
    REQUIRE(s.set_src_text(""));
    CHECK(s.source().labels == std::vector<std::string>{"<eos>"});
    REQUIRE(s.set_tgt_text("   "));
    CHECK(s.target().labels == std::vector<std::string>{"<sos>"});
    CHECK_FALSE(s.stepper().first_non_finite_step());
}

TEST_CASE("a model with a 100,000-token vocabulary opens, runs, and fails cleanly", "[bad_input]") {
    TempDir dir;
    std::vector<std::string> tokens = {"<pad>", "<sos>", "<eos>", "<unk>"};
    for (int i = 4; i < 100000; ++i) tokens.push_back("w" + std::to_string(i));
    auto vocab = Vocab::from_tokens(tokens);
    REQUIRE(vocab);
    auto big = make_random_model("tiny", 3, *vocab, *vocab, TokenizerKind::word);
    REQUIRE(big);
    const std::string path = dir.file("big_vocab.safetensors");
    REQUIRE(io::write_model(path, *big));

    Session s = good_session();
    REQUIRE(s.open_model_file(path));
    CHECK(s.model_name() == path);
    CHECK(s.stepper().config().tgt_vocab_size == 100000);
    REQUIRE(s.set_src_text("w5 w99999 w123 nope"));
    CHECK(s.source().labels == std::vector<std::string>{"w5", "w99999", "w123", "<unk>", "<eos>"});
    REQUIRE(s.set_tgt_text("w42"));
    CHECK(s.stepper().output("logits")->shape == Shape{2, 100000});
    CHECK(s.stepper().output("probs")->row(1).sum() == Approx(1.0f).epsilon(1e-3));

    // And it is a good state that later failures keep.
    const Snapshot before = snapshot(s);
    require_refused(s.set_src_ids({5, 100000}), s, before, "outside the vocabulary 0..99999");
    require_refused(s.open_model_file(dir.file("nope.safetensors")), s, before, "no such file");
}

TEST_CASE("a finite but huge weight is accepted, and the trace says where NaN/Inf first appears", "[bad_input]") {
    Session s = good_session();  // target <sos> 나 는 사과: T = 4
    const std::string attn = "decoder.layers.0.self_attn";
    const float b_q = s.stepper().weights().at(attn + ".in_proj_bias").data[0];
    const float b_k = s.stepper().weights().at(attn + ".in_proj_bias").data[64];
    REQUIRE(s.set_weight(attn + ".in_proj_bias", 0, 3e38f));   // b_Q[0]
    REQUIRE(s.set_weight(attn + ".in_proj_bias", 64, 3e38f));  // b_K[0]: QKᵀ overflows in head 0
    const auto first = s.stepper().first_non_finite_step();
    REQUIRE(first);
    CHECK(s.stepper().step(*first).path == attn + ".scores");
    CHECK(s.stepper().entry(attn + ".scores")->non_finite == 4 * 4);
    CHECK(s.stepper().entry("logits")->non_finite > 0);

    // Commands on the broken trace still fail or succeed cleanly.
    const Snapshot before = snapshot(s);
    require_refused(s.generate_next(true, 1.0f, 7), s, before, "not finite");
    require_refused(s.set_weight(attn + ".in_proj_bias", 0, std::numeric_limits<float>::infinity()), s, before,
                    "finite number");
    REQUIRE(s.translate());

    REQUIRE(s.set_weight(attn + ".in_proj_bias", 0, b_q));
    REQUIRE(s.set_weight(attn + ".in_proj_bias", 64, b_k));
    CHECK_FALSE(s.stepper().first_non_finite_step());
}
