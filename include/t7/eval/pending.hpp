// Which pending product (core/pending.hpp) an assignment consumes block by
// block, decided from the leaf table alone; every other pending leaf is
// materialised here, so the evaluators see values.
#pragma once

#include "../expr/traverse.hpp"

#include <cstdint>

namespace t7::detail {

// A pending leaf the CPU assignment can consume in place: the whole product as
// its recipe lays it out (its matrices' shape, 2-D or 3-D with the batch first;
// offset 0, row-major contiguous; not a view that reshapes it) of exactly the
// assignment's shape, whose recipe neither reads the destination nor is shared with another
// leaf (materialising that one would free the recipe).
inline bool fusable_product(const LeafRef& dst, const LeafRef* leaves, const PendingLeaf* pend,
                            size_t n, size_t k, const Shape& target) {
    const LeafRef& t = leaves[k];
    const Shape &s = *t.sizes, &st = *t.strides;
    const PendingProducer& pr = *pend[k].producer;
    const bool whole = s.size() == 2   ? pr.batches == 1 && s[0] == pr.rows && s[1] == pr.cols
                       : s.size() == 3 ? s[0] == pr.batches && s[1] == pr.rows && s[2] == pr.cols
                                       : false;
    if (!whole || !(s == target) || pend[k].offset != 0 || !is_contiguous(s, st)) return false;
    for (size_t j = 0; j < n; ++j)
        if (j != k && pend[j].producer == pend[k].producer) return false;
    if (dst.sizes->empty()) return true; // a fresh destination is allocated after
    const char* lo = static_cast<const char*>(dst.data);
    int64_t last = 0;
    for (size_t d = 0; d < dst.sizes->size(); ++d)
        last += ((*dst.sizes)[d] - 1) * (*dst.strides)[d];
    return !pend[k].producer->reads(lo, lo + (last + 1) * dst.elem_size);
}

// Keeps at most one pending leaf pending (one fusable_product accepts) and
// materialises the others; `no_fusion` materialises them all (a tree whose
// checks read the values, such as integer division's divisor check). `pend`:
// the tree's gather_pending.
inline void choose_fused_product(const LeafRef& dst, LeafRef* leaves, const PendingLeaf* pend,
                                 size_t n, bool no_fusion) {
    size_t pick = n;
    if (!no_fusion) {
        const Shape target = dst.sizes->empty() ? broadcast_shape(leaves, n, "assign") : *dst.sizes;
        for (size_t k = 0; k < n && pick == n; ++k)
            if (leaves[k].pending && fusable_product(dst, leaves, pend, n, k, target)) pick = k;
    }
    for (size_t k = 0; k < n; ++k)
        if (k != pick && leaves[k].pending) materialise_pending(leaves[k], pend[k]);
}

} // namespace t7::detail
