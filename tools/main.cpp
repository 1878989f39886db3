// The `scatter` command-line program: parses the command line (CLI11) and maps outcomes to exit
// codes: 0 success, 1 runtime error ("error: STATUS_NAME: message" on stderr), 2 usage error.
#include "bench_workloads.h"
#include "cli_error.h"
#include "commands.h"
#include "option_names.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <new>

namespace {

constexpr int kExitRuntimeError = 1;
constexpr int kExitUsageError = 2;

const std::map<std::string, scatter_backend> kRunBackends = {
    {"auto", SCATTER_BACKEND_AUTO}, {"cpu", SCATTER_BACKEND_CPU}, {"vulkan", SCATTER_BACKEND_VULKAN}};

const std::map<std::string, scatter_backend> kBenchBackends = kRunBackends;

// An option whose value is one of the names in `names` (anything else is a usage error); the
// matching enum is stored in *target.
template <typename Enum>
CLI::Option* add_choice(CLI::App* command, const std::string& name, Enum* target,
                        const std::map<std::string, Enum>& names, const std::string& help) {
    std::vector<std::string> keys;
    for (const auto& entry : names) keys.push_back(entry.first);
    return command
        ->add_option_function<std::string>(
            name, [target, &names](const std::string& value) { *target = names.at(value); }, help)
        ->check(CLI::IsMember(keys));
}

void add_context_options(CLI::App* command, ContextSettings* settings,
                         const std::map<std::string, scatter_backend>& backends) {
    add_choice(command, "--backend", &settings->backend, backends, "Backend to run on");
    command->add_option("--device", settings->device_index,
                        "Vulkan device index from `scatter devices` (-1: automatic)")
        ->check(CLI::Range(-1, INT32_MAX));
    command->add_option("--threads", settings->threads, "CPU threads (0: one per hardware thread)")
        ->check(CLI::Range(0u, 4096u));
}

// The checks that need more than one option: which options each --op takes. They throw CLI11's
// ValidationError, so the run ends as any usage error does (exit 2, the message, --help).
// message_passing: --x, --src and --dst instead of --indices and --updates, a policy per index
// vector.
void check_message_passing_options(const CLI::App& command, RunOptions* run, scatter_out_of_range src_policy,
                                   scatter_out_of_range dst_policy) {
    auto given = [&](const char* name) { return command.count(name) > 0; };
    for (const char* name : {"--x", "--src", "--dst"})
        if (!given(name)) throw CLI::ValidationError(std::string(name) + " is required for --op message_passing");
    for (const char* name : {"--indices", "--updates", "--axis", "--batch-dims", "--out-of-range"})
        if (given(name))
            throw CLI::ValidationError(std::string(name) +
                                       " is not an option of --op message_passing: it takes --x, --src, --dst "
                                       "(--weights) and --src-out-of-range / --dst-out-of-range");
    if (src_policy == SCATTER_OUT_OF_RANGE_SKIP)
        throw CLI::ValidationError("--src-out-of-range skip is not allowed (error, clamp or fill)");
    if (dst_policy == SCATTER_OUT_OF_RANGE_FILL)
        throw CLI::ValidationError("--dst-out-of-range fill is not allowed (error, skip or clamp)");
    if (given("--fill-value") && src_policy != SCATTER_OUT_OF_RANGE_FILL)
        throw CLI::ValidationError("--fill-value needs --src-out-of-range fill");
    scatter_message_passing_options& options = run->message_options;
    options.reduction = run->options.reduction;  // DEFAULT: add
    options.src_out_of_range = src_policy;
    options.dst_out_of_range = dst_policy;
    run->has_fill_value = given("--fill-value");
}

void check_run_options(const CLI::App& command, RunOptions* run, scatter_out_of_range out_of_range,
                       scatter_out_of_range src_policy, scatter_out_of_range dst_policy) {
    const std::string op = command.get_option("--op")->as<std::string>();
    auto given = [&](const char* name) { return command.count(name) > 0; };
    auto refuse = [&](const std::string& name, const std::string& why) {
        throw CLI::ValidationError(name + " is not an option of --op " + op + ": " + why);
    };
    if (run->op.message_passing) return check_message_passing_options(command, run, src_policy, dst_policy);
    if (!given("--indices")) throw CLI::ValidationError("--indices is required for --op " + op);
    for (const char* name : {"--x", "--src", "--dst", "--weights", "--src-out-of-range", "--dst-out-of-range"})
        if (given(name)) refuse(name, "it is a message_passing option");
    if (!run->op.gather) {
        if (!given("--updates")) throw CLI::ValidationError("--updates is required for --op " + op);
        for (const char* name : {"--batch-dims", "--fill-value"})
            if (given(name)) refuse(name, "it is a gather option");
        if (out_of_range == SCATTER_OUT_OF_RANGE_FILL)
            throw CLI::ValidationError("--out-of-range fill is not a scatter policy (error, skip or clamp)");
        run->options.out_of_range = out_of_range;
        return;
    }
    for (const char* name : {"--updates", "--reduction", "--exclude-self"})
        if (given(name)) refuse(name, "a gather reads data at the indices into --out");
    if (given("--batch-dims") && run->op.form != ScatterOp::nd)
        refuse("--batch-dims", "only gather_nd has batch dimensions");
    if (out_of_range == SCATTER_OUT_OF_RANGE_SKIP)
        throw CLI::ValidationError("--out-of-range skip is not a gather policy (error, clamp or fill)");
    if (given("--fill-value") && out_of_range != SCATTER_OUT_OF_RANGE_FILL)
        throw CLI::ValidationError("--fill-value needs --out-of-range fill");
    run->gather_options.out_of_range = out_of_range;
    run->gather_options.axis = run->options.axis;
    run->has_fill_value = given("--fill-value");
}

void add_run_command(CLI::App* app, RunOptions* run, bool* exclude_self) {
    CLI::App* command = app->add_subcommand(
        "run", "Scatter updates into data, or gather data at indices, and write the result");
    add_choice(command, "--op", &run->op, op_names(),
               "The operation: elements, rows, nd (scatters), gather_elements, gather_rows, gather_nd, "
               "message_passing")
        ->required();
    command->add_option("--data", run->data_path, "data .npy (message_passing: [M, F...], where out starts)")
        ->required();
    command->add_option("--indices", run->indices_path, "indices .npy (int32 or int64; not message_passing)");
    command->add_option("--updates", run->updates_path, "updates .npy (the data's dtype; scatters only)");
    command->add_option("--out", run->out_path, "result .npy (written only on success)")->required();
    command->add_option("--axis", run->options.axis, "Axis for elements and rows (default 0)");
    add_choice(command, "--reduction", &run->options.reduction, reduction_names(),
               "How updates combine (default none; message_passing: add); PyTorch/ONNX names sum, prod, multiply, amax, "
               "amin are aliases of add, mul, mul, max, min");
    command->add_flag("--exclude-self", *exclude_self,
                      "A hit target starts from the reduction's identity, not its data value");
    auto out_of_range = std::make_shared<scatter_out_of_range>(SCATTER_OUT_OF_RANGE_DEFAULT);
    add_choice(command, "--out-of-range", out_of_range.get(), out_of_range_names(),
               "Policy for out-of-range indices (default error): error, skip or clamp for a scatter; "
               "error, clamp or fill for a gather");
    command->add_option("--batch-dims", run->gather_options.batch_dims,
                        "gather_nd: leading dimensions data and indices share (default 0)");
    command->add_option("--fill-value", run->fill_value,
                        "gather with --out-of-range fill (message_passing: --src-out-of-range fill): the "
                        "value of out-of-range results, in data's dtype (default zero)");
    command->add_option("--x", run->x_path, "message_passing: x .npy, [N, F...] of data's dtype");
    command->add_option("--src", run->src_path, "message_passing: src .npy, [E] int32 or int64 (rows of x)");
    command->add_option("--dst", run->dst_path, "message_passing: dst .npy, [E] int32 or int64 (rows of out)");
    command->add_option("--weights", run->weights_path, "message_passing: weights .npy, [E] of data's dtype");
    auto src_policy = std::make_shared<scatter_out_of_range>(SCATTER_OUT_OF_RANGE_DEFAULT);
    auto dst_policy = std::make_shared<scatter_out_of_range>(SCATTER_OUT_OF_RANGE_DEFAULT);
    add_choice(command, "--src-out-of-range", src_policy.get(), out_of_range_names(),
               "message_passing: error (default), clamp or fill for src");
    add_choice(command, "--dst-out-of-range", dst_policy.get(), out_of_range_names(),
               "message_passing: error (default), skip or clamp for dst");
    add_context_options(command, &run->context, kRunBackends);
    command->callback([command, run, out_of_range, src_policy, dst_policy] {
        check_run_options(*command, run, *out_of_range, *src_policy, *dst_policy);
    });
}

void add_bench_command(CLI::App* app, BenchOptions* bench) {
    CLI::App* command = app->add_subcommand("bench", "Time the standard workloads W1-W20");
    command->add_option("--workload", bench->workloads,
                        "Comma-separated ids (W1,W4) or all (W1-W14, W16-W20; W15, 12 GB, only when named)")
        ->delimiter(',')
        ->check(
            [](const std::string& id) -> std::string {
                if (id == "all") return "";
                for (const Workload& workload : standard_workloads())
                    if (workload.id == id) return "";
                return "unknown workload " + id + " (W1-W20 or all)";
            },
            "W1..W20|all");
    command->add_option("--repeat", bench->repeat, "Timed runs per workload (default 7)")
        ->check(CLI::Range(1, 1000000));
    command->add_flag("--json", bench->json, "One JSON object per workload per line");
    command->add_flag("--resident", bench->resident,
                      "Keep the tensors in context buffers (device memory on Vulkan), uploaded before "
                      "timing, as an engine would; default: host memory, staged in and out per call");
    command->add_option("--batch", bench->batch,
                        "Record N calls into one batch per sample, submit once, wait once (Vulkan, with "
                        "--resident); times are per call")
        ->check(CLI::Range(1, 1000000));
    command->add_option("--misalign", bench->misalign,
                        "Start each host tensor BYTES past a 64-byte boundary, a multiple of 8 below 64 "
                        "(default 0: 64-byte aligned, as PyTorch's allocator; glibc's malloc places large "
                        "blocks 16 past one)")
        ->check(CLI::Validator(
            [](const std::string& text) -> std::string {
                const long value = std::strtol(text.c_str(), nullptr, 10);
                return value >= 0 && value < 64 && value % 8 == 0 ? "" : "must be 0, 8, ..., 56";
            },
            "0..56, a multiple of 8"));
    command->add_flag("--profile", bench->profile,
                      "After timing, profile one more call: host stages and, on Vulkan, the GPU time of "
                      "each pass (with --json, a \"profile\" object)");
    bench->context.backend = SCATTER_BACKEND_CPU;
    add_context_options(command, &bench->context, kBenchBackends);
}

int dispatch(CLI::App& app, const RunOptions& run, const BenchOptions& bench, bool devices_json) {
    if (app.got_subcommand("run")) return run_command(run);
    if (app.got_subcommand("devices")) return devices_command(devices_json);
    if (app.got_subcommand("version")) return version_command();
    return bench_command(bench);
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"scatter: scatter updates into tensors on the CPU or a Vulkan GPU (.npy in, .npy out)",
                 "scatter"};
    app.require_subcommand(1);
    app.set_version_flag("--version", scatter_version_string());

    RunOptions run;
    bool exclude_self = false;
    BenchOptions bench;
    bool devices_json = false;
    add_run_command(&app, &run, &exclude_self);
    app.add_subcommand("devices", "List the backends and devices found, with their features, and why Vulkan is "
                                  "unavailable when it is")
        ->add_flag("--json", devices_json, "One JSON object per device per line, then one for the Vulkan backend");
    app.add_subcommand("version", "Print the library version");
    add_bench_command(&app, &bench);

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        app.exit(e);
        return kExitUsageError;
    }
    if (exclude_self) run.options.flags |= SCATTER_OPTION_EXCLUDE_SELF;
    run.message_options.flags = run.options.flags;

    try {
        return dispatch(app, run, bench, devices_json);
    } catch (const CliError& e) {
        std::fprintf(stderr, "error: %s: %s\n", scatter_status_name(e.status()), e.what());
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "error: %s: host memory ran out\n",
                     scatter_status_name(SCATTER_ERROR_OUT_OF_MEMORY));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "error: %s: %s\n", scatter_status_name(SCATTER_ERROR_INTERNAL), e.what());
    }
    return kExitRuntimeError;
}
