#include "cpu/scatter_backward.h"

#include "core/index_check.h"
#include "cpu/backward_tensors.h"
#include "cpu/element_arith.h"

#include <atomic>
#include <cinttypes>

namespace scatter {
namespace {

// One backward call for storage type F computed in C (FloatTraits' rounding: every step is
// rounded to F, as the forward and PyTorch's CPU kernels do). Counts, flags and update ordinals
// are N: int32_t whenever updates has fewer than 2^31 elements (half the scratch memory and its
// page faults), else int64_t.
template <class F, class C, class N>
class ScatterBackward {
    using T = FloatTraits<F, C>;
    using A = FloatArith<F, C>;

public:
    ScatterBackward(const BackwardPlan& plan, ContextConfig& config, const int64_t* targets)
        : p_(plan), f_(plan.forward), runner_(*config.runner), allocator_(config.allocator),
          scratch_(config.allocator), targets_(targets) {}

    Status run() {
        switch (f_.reduction) {
            case SCATTER_REDUCTION_NONE: return run_none();
            case SCATTER_REDUCTION_ADD:
            case SCATTER_REDUCTION_SUB: return run_add_sub();
            case SCATTER_REDUCTION_MEAN: return run_mean();
            case SCATTER_REDUCTION_MAX:
            case SCATTER_REDUCTION_MIN: return run_max_min();
            case SCATTER_REDUCTION_MUL: return run_mul();
            case SCATTER_REDUCTION_DIV: return run_div();
            default: return make_error(SCATTER_ERROR_INTERNAL, "no backward rule for this reduction");
        }
    }

private:
    static constexpr scatter_dtype kCountDtype = sizeof(N) == 4 ? SCATTER_DTYPE_I32 : SCATTER_DTYPE_I64;
    static constexpr N kOne = 1, kZero = 0, kMinusOne = -1;
    static int64_t load_count(const char* p) {
        N v;
        std::memcpy(&v, p, sizeof(N));
        return int64_t(v);
    }
    static void store_count(char* p, int64_t v) {
        const N n = N(v);
        std::memcpy(p, &n, sizeof(N));
    }
    static F load(const char* p) {
        F v;
        std::memcpy(&v, p, sizeof(F));
        return v;
    }
    static void store(char* p, F v) { std::memcpy(p, &v, sizeof(F)); }
    static void copy(char* to, const char* from) { std::memcpy(to, from, sizeof(F)); }
    static bool is_zero(F v) { return A::load(v) == C(0); }
    // "Equal to the result" for max/min: NaN, which the forward propagates, equals NaN.
    static bool same_value(F a, F b) {
        const C x = A::load(a), y = A::load(b);
        return x == y || (x != x && y != y);
    }
    static F from_count(int64_t n) { return A::store(C(n)); }
    static F positive_zero() { return A::store(C(0)); }
    static F negated(F v) { return A::store(-A::load(v)); }

    bool skips() const { return f_.policy == SCATTER_OUT_OF_RANGE_SKIP; }
    TensorView data_shaped() const { return f_.data; }

    // count[t] = how many updates (not skipped) reach t.
    Status make_counts(TensorView* counts) {
        return scratch_.make(f_.data, kCountDtype, counts);
    }
    Status fill_counts(const TensorView& counts) {
        SCATTER_RETURN_IF_ERROR(fill_count(counts, 0));
        return scatter_in_place(f_, targets_, counts, broadcast_like(f_.updates, kCountDtype, &kOne),
                                SCATTER_REDUCTION_ADD, runner_, allocator_);
    }
    // valid[j] = 1 unless SKIP ignored update j (only made under SKIP).
    Status fill_valid(const TensorView& valid) {
        return gather_at_updates(f_, broadcast_like(f_.data, kCountDtype, &kOne), valid, &kZero, runner_);
    }
    Status fill_count(const TensorView& v, int64_t value) {
        const TensorView* views[] = {&v};
        return for_each_element(runner_, views, [value](int64_t, char* const* e) { store_count(e[0], value); });
    }
    Status fill_positive_zero(const TensorView& v) {
        const TensorView* views[] = {&v};
        const F zero = positive_zero();
        return for_each_element(runner_, views, [zero](int64_t, char* const* e) { store(e[0], zero); });
    }
    // t[j] = g[T(j)] op ... : grad_out gathered into grad_updates (fill for skipped positions).
    Status gather_grad_out(const TensorView& source, F fill) {
        return gather_at_updates(f_, source, p_.grad_updates, &fill, runner_);
    }

    // none: the winner of each target (the last update in row-major order) takes its gradient.
    Status run_none() {
        TensorView winner, ordinal, winner_at_update;
        SCATTER_RETURN_IF_ERROR(scratch_.make(f_.data, kCountDtype, &winner));
        SCATTER_RETURN_IF_ERROR(scratch_.make(f_.updates, kCountDtype, &ordinal));
        if (p_.wants_grad_updates)
            SCATTER_RETURN_IF_ERROR(scratch_.make(f_.updates, kCountDtype, &winner_at_update));
        SCATTER_RETURN_IF_ERROR(fill_count(winner, -1));
        {
            const TensorView* views[] = {&ordinal};
            SCATTER_RETURN_IF_ERROR(for_each_element(runner_, views, [](int64_t j, char* const* e) { store_count(e[0], j); }));
        }
        SCATTER_RETURN_IF_ERROR(
            scatter_in_place(f_, targets_, winner, ordinal, SCATTER_REDUCTION_NONE, runner_, allocator_));
        if (p_.wants_grad_updates)
            SCATTER_RETURN_IF_ERROR(gather_at_updates(f_, winner, winner_at_update, &kMinusOne, runner_));
        if (p_.wants_grad_data) {
            const TensorView* views[] = {&p_.grad_data, &p_.grad_out, &winner};
            const F zero = positive_zero();
            SCATTER_RETURN_IF_ERROR(for_each_element(runner_, views, [zero](int64_t, char* const* e) {
                if (load_count(e[2]) < 0) copy(e[0], e[1]);
                else store(e[0], zero);
            }));
        }
        if (!p_.wants_grad_updates) return Status();
        SCATTER_RETURN_IF_ERROR(gather_grad_out(p_.grad_out, positive_zero()));
        const TensorView* views[] = {&p_.grad_updates, &winner_at_update};
        const F zero = positive_zero();
        return for_each_element(runner_, views, [zero](int64_t j, char* const* e) {
            if (load_count(e[1]) != j) store(e[0], zero);
        });
    }

    // add: every update gets g; sub: -g. exclude_self: a hit target's data gets 0.
    Status run_add_sub() {
        const bool sub = f_.reduction == SCATTER_REDUCTION_SUB;
        TensorView counts;
        const bool masks_data = p_.wants_grad_data && f_.exclude_self;
        if (masks_data) {
            SCATTER_RETURN_IF_ERROR(make_counts(&counts));
            SCATTER_RETURN_IF_ERROR(fill_counts(counts));
        }
        if (p_.wants_grad_data) {
            const F zero = positive_zero();
            if (masks_data) {
                const TensorView* views[] = {&p_.grad_data, &p_.grad_out, &counts};
                SCATTER_RETURN_IF_ERROR(for_each_element(runner_, views, [zero](int64_t, char* const* e) {
                    if (load_count(e[2]) > 0) store(e[0], zero);
                    else copy(e[0], e[1]);
                }));
            } else {
                const TensorView* views[] = {&p_.grad_data, &p_.grad_out};
                SCATTER_RETURN_IF_ERROR(
                    for_each_element(runner_, views, [](int64_t, char* const* e) { copy(e[0], e[1]); }));
            }
        }
        if (!p_.wants_grad_updates) return Status();
        // sub negates after the gather: a skipped update filled with -0 ends at +0.
        SCATTER_RETURN_IF_ERROR(gather_grad_out(p_.grad_out, sub ? negated(positive_zero()) : positive_zero()));
        if (!sub) return Status();
        const TensorView* views[] = {&p_.grad_updates};
        return for_each_element(runner_, views, [](int64_t, char* const* e) { store(e[0], negated(load(e[0]))); });
    }

    // mean: every term of a target's mean gets g / (number of terms).
    Status run_mean() {
        TensorView counts, share;
        SCATTER_RETURN_IF_ERROR(make_counts(&counts));
        if (p_.wants_grad_updates) SCATTER_RETURN_IF_ERROR(scratch_.make(f_.data, f_.data.dtype(), &share));
        SCATTER_RETURN_IF_ERROR(fill_counts(counts));
        const int64_t self_term = f_.exclude_self ? 0 : 1;
        if (p_.wants_grad_updates) {
            const TensorView* views[] = {&share, &p_.grad_out, &counts};
            SCATTER_RETURN_IF_ERROR(for_each_element(runner_, views, [self_term](int64_t, char* const* e) {
                const int64_t n = load_count(e[2]) + self_term;
                store(e[0], T::div(load(e[1]), from_count(n == 0 ? 1 : n)));
            }));
        }
        if (p_.wants_grad_data) {
            const TensorView* views[] = {&p_.grad_data, &p_.grad_out, &counts};
            const bool exclude = f_.exclude_self;
            const F zero = positive_zero();
            SCATTER_RETURN_IF_ERROR(for_each_element(runner_, views, [exclude, zero](int64_t, char* const* e) {
                const int64_t hits = load_count(e[2]);
                if (hits == 0) copy(e[0], e[1]);
                else if (exclude) store(e[0], zero);
                else store(e[0], T::div(load(e[1]), from_count(hits + 1)));
            }));
        }
        return p_.wants_grad_updates ? gather_grad_out(share, positive_zero()) : Status();
    }

    // max/min: g split evenly between the terms equal to the result.
    Status run_max_min() {
        TensorView counts, out_at_update, ties_at_update, ties, share;
        const bool exclude = f_.exclude_self;
        if (exclude) SCATTER_RETURN_IF_ERROR(make_counts(&counts));
        SCATTER_RETURN_IF_ERROR(scratch_.make(f_.updates, f_.data.dtype(), &out_at_update));
        SCATTER_RETURN_IF_ERROR(scratch_.make(f_.updates, kCountDtype, &ties_at_update));
        SCATTER_RETURN_IF_ERROR(scratch_.make(f_.data, kCountDtype, &ties));
        if (p_.wants_grad_updates) SCATTER_RETURN_IF_ERROR(scratch_.make(f_.data, f_.data.dtype(), &share));

        if (exclude) SCATTER_RETURN_IF_ERROR(fill_counts(counts));
        // A skipped update's tie flag is never used: the scatter skips it too, and its gradient
        // comes from the gather's fill (+0).
        const F zero = positive_zero();
        SCATTER_RETURN_IF_ERROR(gather_at_updates(f_, f_.out, out_at_update, &zero, runner_));
        {
            const TensorView* views[] = {&ties_at_update, &f_.updates, &out_at_update};
            SCATTER_RETURN_IF_ERROR(for_each_element(runner_, views, [](int64_t, char* const* e) {
                store_count(e[0], same_value(load(e[1]), load(e[2])) ? 1 : 0);
            }));
        }
        // ties[t] starts at 1 when data[t] is a term equal to the result.
        {
            const TensorView* views[] = {&ties, &f_.data, &f_.out, exclude ? &counts : &f_.data};
            SCATTER_RETURN_IF_ERROR(for_each_element(runner_, views, [exclude](int64_t, char* const* e) {
                const bool self_is_term = !exclude || load_count(e[3]) == 0;
                store_count(e[0], self_is_term && same_value(load(e[1]), load(e[2])) ? 1 : 0);
            }));
        }
        SCATTER_RETURN_IF_ERROR(
            scatter_in_place(f_, targets_, ties, ties_at_update, SCATTER_REDUCTION_ADD, runner_, allocator_));
        auto split = [zero](const char* g, int64_t n) { return n > 0 ? T::div(load(g), from_count(n)) : zero; };
        if (p_.wants_grad_updates) {
            const TensorView* views[] = {&share, &p_.grad_out, &ties};
            SCATTER_RETURN_IF_ERROR(for_each_element(
                runner_, views, [split](int64_t, char* const* e) { store(e[0], split(e[1], load_count(e[2]))); }));
        }
        if (p_.wants_grad_data) {
            const TensorView* views[] = {&p_.grad_data, &p_.grad_out, &ties, &f_.data, &f_.out,
                                         exclude ? &counts : &f_.data};
            SCATTER_RETURN_IF_ERROR(for_each_element(runner_, views, [split, exclude, zero](int64_t, char* const* e) {
                const bool self_is_term = (!exclude || load_count(e[5]) == 0) && same_value(load(e[3]), load(e[4]));
                store(e[0], self_is_term ? split(e[1], load_count(e[2])) : zero);
            }));
        }
        if (!p_.wants_grad_updates) return Status();
        SCATTER_RETURN_IF_ERROR(gather_grad_out(share, zero));
        const TensorView* views[] = {&p_.grad_updates, &ties_at_update};
        return for_each_element(runner_, views, [zero](int64_t, char* const* e) {
            if (load_count(e[1]) == 0) store(e[0], zero);
        });
    }

    // *found = some element of v is zero (±0).
    Status any_zero(const TensorView& v, bool* found) {
        std::atomic<bool> zero{false};
        const TensorView* views[] = {&v};
        SCATTER_RETURN_IF_ERROR(for_each_element(runner_, views, [&zero](int64_t, char* const* e) {
            if (is_zero(load(e[0]))) zero.store(true, std::memory_order_relaxed);
        }));
        *found = zero.load();
        return Status();
    }

    // mul: PyTorch's scatter_reduce "prod" backward, zeros included.
    Status run_mul() {
        const bool exclude = f_.exclude_self;
        bool data_zeros = false, update_zeros = false;
        if (p_.wants_grad_data) SCATTER_RETURN_IF_ERROR(any_zero(f_.data, &data_zeros));
        if (p_.wants_grad_updates) SCATTER_RETURN_IF_ERROR(any_zero(f_.updates, &update_zeros));
        TensorView counts, updates_product, grad_times_out, zeros_at_update, zero_counts, masked_updates, other_product,
            valid;
        if (p_.wants_grad_data) SCATTER_RETURN_IF_ERROR(make_counts(&counts));
        if (data_zeros) SCATTER_RETURN_IF_ERROR(scratch_.make(f_.data, f_.data.dtype(), &updates_product));
        if (p_.wants_grad_updates) SCATTER_RETURN_IF_ERROR(scratch_.make(f_.data, f_.data.dtype(), &grad_times_out));
        if (skips() && p_.wants_grad_updates) SCATTER_RETURN_IF_ERROR(scratch_.make(f_.updates, kCountDtype, &valid));
        if (update_zeros) {
            SCATTER_RETURN_IF_ERROR(scratch_.make(f_.updates, kCountDtype, &zeros_at_update));
            SCATTER_RETURN_IF_ERROR(scratch_.make(f_.data, kCountDtype, &zero_counts));
            SCATTER_RETURN_IF_ERROR(scratch_.make(f_.updates, f_.data.dtype(), &masked_updates));
            SCATTER_RETURN_IF_ERROR(scratch_.make(f_.data, f_.data.dtype(), &other_product));
        }
        const F zero = positive_zero(), one = A::store(C(1));

        if (p_.wants_grad_data) SCATTER_RETURN_IF_ERROR(fill_counts(counts));
        if (data_zeros) {
            // The product of a target's updates alone: its gradient when data[t] is zero.
            const TensorView* views[] = {&updates_product};
            SCATTER_RETURN_IF_ERROR(for_each_element(runner_, views, [one](int64_t, char* const* e) { store(e[0], one); }));
            SCATTER_RETURN_IF_ERROR(
                scatter_in_place(f_, targets_, updates_product, f_.updates, SCATTER_REDUCTION_MUL, runner_, allocator_));
        }
        if (p_.wants_grad_updates) {
            const TensorView* views[] = {&grad_times_out, &p_.grad_out, &f_.out};
            SCATTER_RETURN_IF_ERROR(for_each_element(
                runner_, views, [](int64_t, char* const* e) { store(e[0], T::mul(load(e[1]), load(e[2]))); }));
            if (skips()) SCATTER_RETURN_IF_ERROR(fill_valid(valid));
        }
        if (update_zeros) {
            // A zero update that is its target's only zero gets g times the product of the other
            // terms, computed as the forward does with that zero replaced by one.
            SCATTER_RETURN_IF_ERROR(fill_count(zero_counts, 0));
            const TensorView* masks[] = {&zeros_at_update, &masked_updates, &f_.updates};
            SCATTER_RETURN_IF_ERROR(for_each_element(runner_, masks, [one](int64_t, char* const* e) {
                const F u = load(e[2]);
                store_count(e[0], is_zero(u) ? 1 : 0);
                store(e[1], is_zero(u) ? one : u);
            }));
            SCATTER_RETURN_IF_ERROR(
                scatter_in_place(f_, targets_, zero_counts, zeros_at_update, SCATTER_REDUCTION_ADD, runner_, allocator_));
            const TensorView* starts[] = {&other_product, &f_.data};
            SCATTER_RETURN_IF_ERROR(for_each_element(runner_, starts, [exclude, one](int64_t, char* const* e) {
                if (exclude) store(e[0], one);
                else copy(e[0], e[1]);
            }));
            SCATTER_RETURN_IF_ERROR(
                scatter_in_place(f_, targets_, other_product, masked_updates, SCATTER_REDUCTION_MUL, runner_, allocator_));
            const TensorView* scaled[] = {&other_product, &p_.grad_out};
            SCATTER_RETURN_IF_ERROR(for_each_element(
                runner_, scaled, [](int64_t, char* const* e) { store(e[0], T::mul(load(e[1]), load(e[0]))); }));
            // Reuse: zeros_at_update becomes the zero count of each update's target, and
            // masked_updates g times the other terms' product there.
            SCATTER_RETURN_IF_ERROR(gather_at_updates(f_, zero_counts, zeros_at_update, &kZero, runner_));
            SCATTER_RETURN_IF_ERROR(gather_at_updates(f_, other_product, masked_updates, &zero, runner_));
        }
        if (p_.wants_grad_data) {
            const TensorView* views[] = {&p_.grad_data, &p_.grad_out, &counts, &f_.data, &f_.out,
                                         data_zeros ? &updates_product : &f_.data};
            SCATTER_RETURN_IF_ERROR(for_each_element(runner_, views, [exclude, zero](int64_t, char* const* e) {
                if (load_count(e[2]) == 0) return copy(e[0], e[1]);
                if (exclude) return store(e[0], zero);
                const F d = load(e[3]);
                if (is_zero(d)) return store(e[0], T::mul(load(e[1]), load(e[5])));
                store(e[0], T::div(T::mul(load(e[1]), load(e[4])), d));
            }));
        }
        if (!p_.wants_grad_updates) return Status();
        SCATTER_RETURN_IF_ERROR(gather_grad_out(grad_times_out, zero));
        const bool skip = skips();
        const TensorView* views[] = {&p_.grad_updates, &f_.updates, update_zeros ? &zeros_at_update : &f_.updates,
                                     update_zeros ? &masked_updates : &f_.updates, skip ? &valid : &f_.updates};
        return for_each_element(runner_, views, [update_zeros, skip, zero, one](int64_t, char* const* e) {
            if (skip && load_count(e[4]) == 0) return store(e[0], zero);
            const F u = load(e[1]);
            if (!is_zero(u)) return store(e[0], T::div(load(e[0]), u));
            if (update_zeros && load_count(e[2]) == 1) return copy(e[0], e[3]);
            store(e[0], T::div(load(e[0]), one));
        });
    }

    // div (out = data / (u1 * u2 * ...)): data gets g / u1 / u2 / ..., each u gets -(g * out) / u.
    Status run_div() {
        const bool exclude = f_.exclude_self;
        TensorView counts, quotient, grad_times_out, valid;
        const bool masks_data = p_.wants_grad_data && exclude;
        if (masks_data) SCATTER_RETURN_IF_ERROR(make_counts(&counts));
        if (p_.wants_grad_data) SCATTER_RETURN_IF_ERROR(scratch_.make(f_.data, f_.data.dtype(), &quotient));
        if (p_.wants_grad_updates) SCATTER_RETURN_IF_ERROR(scratch_.make(f_.data, f_.data.dtype(), &grad_times_out));
        if (skips() && p_.wants_grad_updates) SCATTER_RETURN_IF_ERROR(scratch_.make(f_.updates, kCountDtype, &valid));
        const F zero = positive_zero();
        if (masks_data) SCATTER_RETURN_IF_ERROR(fill_counts(counts));
        if (p_.wants_grad_data) {
            const TensorView* views[] = {&quotient, &p_.grad_out};
            SCATTER_RETURN_IF_ERROR(for_each_element(runner_, views, [](int64_t, char* const* e) { copy(e[0], e[1]); }));
            // The forward's own division, applied to g: the same divisors in the same order.
            SCATTER_RETURN_IF_ERROR(
                scatter_in_place(f_, targets_, quotient, f_.updates, SCATTER_REDUCTION_DIV, runner_, allocator_));
        }
        if (p_.wants_grad_updates) {
            const TensorView* views[] = {&grad_times_out, &p_.grad_out, &f_.out};
            SCATTER_RETURN_IF_ERROR(for_each_element(
                runner_, views, [](int64_t, char* const* e) { store(e[0], T::mul(load(e[1]), load(e[2]))); }));
            if (skips()) SCATTER_RETURN_IF_ERROR(fill_valid(valid));
        }
        if (p_.wants_grad_data) {
            const TensorView* views[] = {&p_.grad_data, &quotient, masks_data ? &counts : &quotient};
            SCATTER_RETURN_IF_ERROR(for_each_element(runner_, views, [masks_data, zero](int64_t, char* const* e) {
                if (masks_data && load_count(e[2]) > 0) store(e[0], zero);
                else copy(e[0], e[1]);
            }));
        }
        if (!p_.wants_grad_updates) return Status();
        SCATTER_RETURN_IF_ERROR(gather_grad_out(grad_times_out, zero));
        const bool skip = skips();
        const TensorView* views[] = {&p_.grad_updates, &f_.updates, skip ? &valid : &f_.updates};
        return for_each_element(runner_, views, [skip, zero](int64_t, char* const* e) {
            if (skip && load_count(e[2]) == 0) return store(e[0], zero);
            store(e[0], negated(T::div(load(e[0]), load(e[1]))));
        });
    }

    const BackwardPlan& p_;
    const OpPlan& f_;
    TaskRunner& runner_;
    const HostAllocator& allocator_;
    ScratchTensors scratch_;
    const int64_t* targets_;
};

template <class F, class C>
Status run_typed(const BackwardPlan& plan, ContextConfig& config, const int64_t* targets) {
    if (plan.forward.updates.element_count < INT32_MAX) return ScatterBackward<F, C, int32_t>(plan, config, targets).run();
    return ScatterBackward<F, C, int64_t>(plan, config, targets).run();
}

Status fill_zeros(const TensorView& v, TaskRunner& runner) {
    const TensorView* views[] = {&v};
    const uint32_t size = v.element_size;
    // +0 is all-zero bytes in every float dtype.
    return for_each_element(runner, views, [size](int64_t, char* const* e) { std::memset(e[0], 0, size); });
}

}  // namespace

Status scatter_backward_cpu(const BackwardPlan& plan, ContextConfig& config) {
    const OpPlan& f = plan.forward;
    TaskRunner& runner = *config.runner;
    SCATTER_RETURN_IF_ERROR(check_indices(f, runner));
    // No data element: every update was skipped (or there is none), and nothing reaches data.
    if (f.data.empty()) return plan.wants_grad_updates ? fill_zeros(plan.grad_updates, runner) : Status();
    ScratchArray<int64_t> targets(config.allocator);
    if (f.op != OpKind::Elements && !f.no_updates()) {
        if (!targets.allocate(size_t(std::max<int64_t>(f.slices, 1))))
            return make_error(SCATTER_ERROR_OUT_OF_MEMORY, "could not allocate the targets of %" PRId64 " slices",
                              f.slices);
        SCATTER_RETURN_IF_ERROR(resolve_slice_targets(f, runner, targets.data()));
    }
    switch (f.data.dtype()) {
        case SCATTER_DTYPE_F16: return run_typed<Half, float>(plan, config, targets.data());
        case SCATTER_DTYPE_BF16: return run_typed<BFloat, float>(plan, config, targets.data());
        case SCATTER_DTYPE_F32: return run_typed<float, float>(plan, config, targets.data());
        case SCATTER_DTYPE_F64: return run_typed<double, double>(plan, config, targets.data());
        default: return make_error(SCATTER_ERROR_INTERNAL, "the backward got a dtype the planner refuses");
    }
}

}  // namespace scatter
