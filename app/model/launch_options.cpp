// Parses attnlab's flags; unknown flags and bad numbers are errors.
#include "launch_options.h"

#include "io/file_bytes.h"
#include "parallel.h"
#include "train/tasks.h"
#include "view_state.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <string_view>

namespace attnlab::gui {

std::string launch_usage() {
    std::string views;  // from the table --view parses (view_from_id), so the two cannot drift apart
    for (View v : kAllViews) views += std::string(" ") + view_id(v);
    return "usage: attnlab [--help] [--model FILE | --preset tiny|base] [--src TEXT | --src-file FILE] [--view NAME] "
           "[--korean] [--presentation] [--light]\n"
           "               [--screenshot OUT.png [--frames N]] [--bench-frames N] [--bench-edit POS] [--soak N] "
           "[--size WxH] [--step N]\n"
           "               [--fresh-settings] [--settings FILE]"
           " [--train-steps N [--train-task copy|reverse|sort|en-ko|induction | --train-on FILE]]\n"
           "               [--classroom] [--predict]\n"
           "               [--tour N [--tour-slides DIR]] [--switch NAME]\n"
           "               [--scale X] [--check-tour-target] [--generate N] [--threads N] [--head-off USE:LAYER:HEAD]\n"
           "               [--backward] [--loss next-token|token:ID@POS|logit-diff:A,B@POS]\n"
           "views (--view NAME):" +
           views +
           "\n"
           "Without --model or --preset it opens assets/models/en-ko.safetensors when that exists, else a seeded\n"
           "random tiny model over assets/vocab/en.txt and ko.txt.\n"
           "--train-steps N starts a training run of N steps at launch (the Training view's preset, seed and batch;\n"
           "its task, or --train-task); with --screenshot the picture is taken once that run has finished.\n"
           "--train-on FILE makes that run train the opened model on FILE: text through its tokenizer, token ids\n"
           "when the name ends in .ids, source<TAB>target pairs for an encoder-decoder.\n"
           "--tour N opens chapter N of the guided tour; with --tour-slides DIR it writes that chapter's slides (each\n"
           "the view alone under the chapter's title, 1920x1080 in large type whatever --size says) as PNGs into DIR "
           "and exits.\n"
           "A --model that does not open is said in one line, and the app opens on the bundled model instead.\n"
           "--scale X multiplies every size by the screen's content scale X (default: what the system reports).\n"
           "Type and spacing also grow with a window larger than 1920x1080, so a 4K screen needs no flag;\n"
           "presentation and classroom fonts still shrink to fit the window.\n"
           "--check-tour-target (with --tour N --screenshot) exits 1 with one line when the chapter's task widget\n"
           "or its card's task is not fully on screen.\n"
           "--generate N starts the Output view's generation token by token at launch; with --screenshot the\n"
           "picture is taken as the N-th new token appears (or the generation ends first).\n"
           "--threads N runs the forward pass on N threads (default: every core).\n"
           "--src-file FILE reads the input text from a file (a paragraph, say; its final newline dropped).\n"
           "--predict starts in predict mode (P in the app): each step forward covers the view until R.\n"
           "--bench-edit POS types one letter after token POS of the prompt (or source), three times, each undone,\n"
           "and prints as JSON the median times of the re-run and of the frame after it, beside the same edit on a\n"
           "bare stepper (attnlab-cli bench --edits).\n"
           "--soak N drives the app headless for N frames (models, presets, edits, tabs) and exits 1 if its resident\n"
           "memory grew after warm-up.\n"
           "--switch NAME (repeatable) sets a Model view switch on the opened weights: pre-ln, post-ln, relu, gelu,\n"
           "gelu-tanh, silu, sinusoidal, learned-positions, no-positions, interleaved-sinusoids, halved-sinusoids,\n"
           "scale-embedding, no-scale-embedding, final-norm, no-final-norm.\n"
           "--head-off USE:LAYER:HEAD (repeatable) switches a head off at launch, as the attention view does; USE\n"
           "is encoder_self, decoder_self or cross, LAYER and HEAD count from 0 (e.g. decoder_self:0:1).\n"
           "--backward runs the backward pass to its end after the forward pass: every view shows gradients.\n"
           "--loss SPEC chooses the loss it starts from: next-token (the default with a decoder), token:ID@POS (the\n"
           "cross-entropy of token ID at position POS) or logit-diff:A,B@POS (logit A minus logit B there).\n";
}

bool apply_launch_switch(const std::string& name, ModelConfig& c) {
    if (name == "pre-ln" || name == "post-ln")
        c.norm_first = name == "pre-ln";
    else if (name == "relu")
        c.activation = Activation::relu;
    else if (name == "gelu")
        c.activation = Activation::gelu;
    else if (name == "gelu-tanh")
        c.activation = Activation::gelu_tanh;
    else if (name == "silu")
        c.activation = Activation::silu;
    else if (name == "sinusoidal")
        c.positional = Positional::sinusoidal;
    else if (name == "learned-positions")
        c.positional = Positional::learned;
    else if (name == "no-positions")
        c.positional = Positional::none;
    else if (name == "interleaved-sinusoids" || name == "halved-sinusoids")
        c.sinusoid_layout = name == "halved-sinusoids" ? SinusoidLayout::halves : SinusoidLayout::interleaved;
    else if (name == "scale-embedding" || name == "no-scale-embedding")
        c.scale_embedding = name == "scale-embedding";
    else if (name == "final-norm" || name == "no-final-norm")
        c.final_norm = name == "final-norm";
    else
        return false;
    return true;
}

namespace {

std::optional<int> to_int(const std::string& s, int lo, int hi) {
    int v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size() || v < lo || v > hi) return std::nullopt;
    return v;
}

// "decoder_self:0:1" -> that head; nullopt unless it is USE:LAYER:HEAD with a known use.
std::optional<LaunchHead> to_head(const std::string& s) {
    const size_t a = s.find(':'), b = a == std::string::npos ? a : s.find(':', a + 1);
    if (b == std::string::npos) return std::nullopt;
    const auto layer = to_int(s.substr(a + 1, b - a - 1), 0, 1000), head = to_int(s.substr(b + 1), 0, 1000);
    if (!layer || !head) return std::nullopt;
    for (const auto& [use, name] : EnumNames<AttentionUse>::list)
        if (s.compare(0, a, name) == 0 && a == std::string_view(name).size()) return LaunchHead{{use, *layer}, *head};
    return std::nullopt;
}

}  // namespace

Result<LaunchOptions> parse_launch_options(const std::vector<std::string>& args) {
    LaunchOptions o;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&]() -> std::optional<std::string> {
            if (i + 1 >= args.size()) return std::nullopt;
            return args[++i];
        };
        if (a == "--help" || a == "-h") {
            o.help = true;
            continue;
        }
        if (a == "--korean") {
            o.korean = true;
            continue;
        }
        if (a == "--presentation") {
            o.presentation = true;
            continue;
        }
        if (a == "--light") {
            o.light = true;
            continue;
        }
        if (a == "--classroom") {
            o.classroom = true;
            continue;
        }
        if (a == "--predict") {
            o.predict = true;
            continue;
        }
        if (a == "--backward") {
            o.backward = true;
            continue;
        }
        if (a == "--check-tour-target") {
            o.check_tour_target = true;
            continue;
        }
        if (a == "--fresh-settings") {
            o.fresh_settings = true;
            continue;
        }
        const auto v = value();
        if (!v) return Error{a.starts_with("--") ? a + " needs a value" : "unexpected argument '" + a + "'"};
        if (a == "--screenshot")
            o.screenshot = *v;
        else if (a == "--view") {
            View view;
            if (!view_from_id(*v, view)) return Error{"unknown view '" + *v + "'"};
            o.view = *v;
        } else if (a == "--src" || a == "--src-file") {
            if (o.src) return Error{"give --src or --src-file once"};
            if (a == "--src") {
                o.src = *v;
            } else {
                auto bytes = io::read_file_bytes(*v);
                if (!bytes) return Error{"--src-file: " + bytes.error().message};
                std::string text(bytes->begin(), bytes->end());
                while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
                o.src = std::move(text);
            }
        } else if (a == "--model")
            o.model = *v;
        else if (a == "--loss") {
            auto loss = LossSpec::parse(*v);
            if (!loss) return Error{"--loss: " + loss.error().message};
            o.loss = *loss;
        } else if (a == "--settings")
            o.settings = *v;
        else if (a == "--preset") {
            if (*v != "tiny" && *v != "base") return Error{"--preset takes tiny or base"};
            o.preset = *v;
        } else if (a == "--step") {
            auto n = to_int(*v, 0, 1000000);
            if (!n) return Error{"--step takes a step count (0 = nothing run yet)"};
            o.step = *n;
        } else if (a == "--tour") {
            auto n = to_int(*v, 1, 1000);
            if (!n) return Error{"--tour takes a chapter number (1 = the first)"};
            o.tour = *n;
        } else if (a == "--tour-slides") {
            o.tour_slides = *v;
        } else if (a == "--train-steps") {
            auto n = to_int(*v, 1, 10000000);
            if (!n) return Error{"--train-steps takes a positive step count"};
            o.train_steps = *n;
        } else if (a == "--generate") {
            auto n = to_int(*v, 1, 1000);
            if (!n) return Error{"--generate takes a positive token count"};
            o.generate_tokens = *n;
        } else if (a == "--threads") {
            auto n = parse_thread_count(*v);
            if (!n) return Error{"--threads takes a whole number of threads from 1 to " + std::to_string(kMaxThreads)};
            o.threads = *n;
        } else if (a == "--train-task") {
            if (!is_train_task(*v))
                return Error{"unknown task '" + *v + "' (expected copy, reverse, sort, en-ko or induction)"};
            o.train_task = *v;
        } else if (a == "--train-on") {
            o.train_on = *v;
        } else if (a == "--bench-edit") {
            auto n = to_int(*v, 0, 1000000);
            if (!n) return Error{"--bench-edit takes a token position (0 is the first)"};
            o.bench_edit = *n;
        } else if (a == "--frames" || a == "--bench-frames" || a == "--soak") {
            auto n = to_int(*v, 1, 1000000);
            if (!n) return Error{a + " takes a positive integer"};
            (a == "--frames" ? o.frames : a == "--soak" ? o.soak_frames : o.bench_frames) = *n;
        } else if (a == "--scale") {
            char* end = nullptr;  // strtof, not from_chars: libc++ 14 (the web page's) has no floating-point from_chars
            const float scale = std::strtof(v->c_str(), &end);
            if (v->empty() || end != v->c_str() + v->size() || !(scale >= 0.5f && scale <= 4.0f))
                return Error{"--scale takes the screen's content scale, from 0.5 to 4 (e.g. 2 on a 4K screen)"};
            o.scale = scale;
        } else if (a == "--switch") {
            ModelConfig c;
            if (!apply_launch_switch(*v, c)) return Error{"unknown switch '" + *v + "' (see --help)"};
            o.switches.push_back(*v);
        } else if (a == "--head-off") {
            const auto head = to_head(*v);
            if (!head)
                return Error{"--head-off takes USE:LAYER:HEAD (encoder_self, decoder_self or cross), e.g. cross:0:1"};
            if (std::find(o.heads_off.begin(), o.heads_off.end(), *head) != o.heads_off.end())
                return Error{"--head-off " + *v + " is given twice"};
            o.heads_off.push_back(*head);
        } else if (a == "--size") {
            const auto x = v->find('x');
            auto w = x == std::string::npos ? std::nullopt : to_int(v->substr(0, x), 1, 1000000);
            auto h = x == std::string::npos ? std::nullopt : to_int(v->substr(x + 1), 1, 1000000);
            if (!w || !h) return Error{"--size takes WIDTHxHEIGHT, e.g. 1600x900"};
            if (*w < 320 || *h < 240) return Error{"--size " + *v + " is too small: at least 320x240"};
            if (*w > 8192 || *h > 8192) return Error{"--size " + *v + " is too large: at most 8192x8192"};
            o.width = *w;
            o.height = *h;
        } else {
            return Error{"unknown option " + a};
        }
    }
    if (o.model && o.preset) return Error{"give --model or --preset, not both"};
    if (o.train_task && o.train_steps == 0) return Error{"--train-task needs --train-steps N"};
    if (o.train_on && o.train_steps == 0) return Error{"--train-on needs --train-steps N"};
    if (o.train_on && o.train_task) return Error{"give --train-task or --train-on, not both"};
    if (o.check_tour_target && (!o.tour || !o.screenshot))
        return Error{"--check-tour-target needs --tour N and --screenshot OUT.png"};
    return o;
}

}  // namespace attnlab::gui
