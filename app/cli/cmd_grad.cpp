// attnlab-cli grad: the forward pass, a loss of its logits, and the backward pass step by step; writes every
// gradient (of each forward step's output under its path, of each parameter under param.<name>).
#include "backward/backward_pass.h"
#include "cli_common.h"
#include "commands.h"
#include "io/gradient_file.h"

#include <cstdio>

namespace attnlab::cli {

int run_grad(const Argv& argv) {
    Args args;
    std::set<std::string> flags = kInputFlags;
    flags.insert({"out", "loss"});
    if (auto err = parse_args(argv, {flags, {}, 1}, args)) return fail("grad: " + *err, kExitUsage);
    if (!args.get("out")) return fail("grad: missing --out GRADS.safetensors", kExitUsage);
    Model model;
    int code = 0;
    auto stepper = open_stepper(args, &model, &code);
    if (!stepper) return fail(stepper.error().message, code);
    auto loss = args.get("loss") ? LossSpec::parse(*args.get("loss")) : default_loss(stepper->config());
    if (!loss) return fail("grad: " + loss.error().message, kExitUsage);
    stepper->run_all();
    auto backward = BackwardPass::create(*stepper, *loss);
    if (!backward) return fail("grad: " + backward.error().message, kExitBadInput);
    backward->run_all(*stepper);
    const io::SafetensorsFile file = io::gradients_to_safetensors(*stepper, *backward);
    if (auto st = io::write_safetensors(*args.get("out"), file); !st) return fail(st.error().message, kExitBadInput);
    std::printf("loss %s = %.6g (%s)\n", loss->to_string().c_str(), backward->loss(), loss->definition().c_str());
    std::printf("wrote %s: %zu backward steps, %zu step gradients, %zu parameter gradients\n", args.get("out")->c_str(),
                backward->size(), backward->reached().size(), backward->param_grads().size());
    return 0;
}

}  // namespace attnlab::cli
