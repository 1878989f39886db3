// Picks the kernel instantiation for a plan's dtype and reduction: f(applier) is called with
// an Assign<N> for `none`, or a Reduce<S, Combine<R, Traits, S>> otherwise.
#pragma once

#include "core/op_plan.h"
#include "cpu/apply_update.h"

namespace scatter {

template <class S, class Tr, class F>
void with_reduction(scatter_reduction r, uint32_t size, F&& f) {
    switch (r) {
        case SCATTER_REDUCTION_ADD: f(Reduce<S, Combine<SCATTER_REDUCTION_ADD, Tr, S>>{size}); break;
        case SCATTER_REDUCTION_SUB: f(Reduce<S, Combine<SCATTER_REDUCTION_SUB, Tr, S>>{size}); break;
        case SCATTER_REDUCTION_MUL: f(Reduce<S, Combine<SCATTER_REDUCTION_MUL, Tr, S>>{size}); break;
        case SCATTER_REDUCTION_DIV: f(Reduce<S, Combine<SCATTER_REDUCTION_DIV, Tr, S>>{size}); break;
        case SCATTER_REDUCTION_MAX: f(Reduce<S, Combine<SCATTER_REDUCTION_MAX, Tr, S>>{size}); break;
        case SCATTER_REDUCTION_MIN: f(Reduce<S, Combine<SCATTER_REDUCTION_MIN, Tr, S>>{size}); break;
        case SCATTER_REDUCTION_MEAN: f(Reduce<S, Combine<SCATTER_REDUCTION_MEAN, Tr, S>>{size}); break;
        default: break;
    }
}

// Reductions that a dtype does not allow never get here (the planners reject them).
template <class F>
void dispatch_applier(scatter_dtype dtype, uint32_t size, scatter_reduction r, F&& f) {
    if (r == SCATTER_REDUCTION_NONE) {
        switch (size) {
            case 1: f(Assign<1>{size}); return;
            case 2: f(Assign<2>{size}); return;
            case 4: f(Assign<4>{size}); return;
            case 8: f(Assign<8>{size}); return;
            case 16: f(Assign<16>{size}); return;
            default: f(Assign<0>{size}); return;
        }
    }
    switch (dtype) {
        case SCATTER_DTYPE_F16: with_reduction<Half, FloatTraits<Half, float>>(r, size, f); return;
        case SCATTER_DTYPE_BF16: with_reduction<BFloat, FloatTraits<BFloat, float>>(r, size, f); return;
        case SCATTER_DTYPE_F32: with_reduction<float, FloatTraits<float, float>>(r, size, f); return;
        case SCATTER_DTYPE_F64: with_reduction<double, FloatTraits<double, double>>(r, size, f); return;
        case SCATTER_DTYPE_I8: with_reduction<int8_t, IntTraits<int8_t>>(r, size, f); return;
        case SCATTER_DTYPE_I16: with_reduction<int16_t, IntTraits<int16_t>>(r, size, f); return;
        case SCATTER_DTYPE_I32: with_reduction<int32_t, IntTraits<int32_t>>(r, size, f); return;
        case SCATTER_DTYPE_I64: with_reduction<int64_t, IntTraits<int64_t>>(r, size, f); return;
        case SCATTER_DTYPE_U8: with_reduction<uint8_t, IntTraits<uint8_t>>(r, size, f); return;
        case SCATTER_DTYPE_U16: with_reduction<uint16_t, IntTraits<uint16_t>>(r, size, f); return;
        case SCATTER_DTYPE_U32: with_reduction<uint32_t, IntTraits<uint32_t>>(r, size, f); return;
        case SCATTER_DTYPE_U64: with_reduction<uint64_t, IntTraits<uint64_t>>(r, size, f); return;
        case SCATTER_DTYPE_BOOL: with_reduction<Bool8, BoolTraits>(r, size, f); return;
        case SCATTER_DTYPE_C64: with_reduction<ComplexOf<float>, ComplexTraits<float>>(r, size, f); return;
        case SCATTER_DTYPE_C128: with_reduction<ComplexOf<double>, ComplexTraits<double>>(r, size, f); return;
        default: return;
    }
}

template <class F>
void dispatch_applier(const OpPlan& plan, F&& f) {
    dispatch_applier(plan.data.dtype(), plan.data.element_size, plan.reduction, f);
}

}  // namespace scatter
