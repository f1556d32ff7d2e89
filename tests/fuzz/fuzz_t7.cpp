// libFuzzer target for the Torch7 reader (io/t7_reader.hpp): any bytes, read as
// binary and as ascii, either fail with t7::IOError or give an object that
// - holds only tensors whose every element lies inside their storage (each is read),
// - writes and reads back to the same bytes (serialize . deserialize is stable).
// Anything else (a crash, a sanitizer report, another exception, an allocation
// beyond -malloc_limit_mb) is a finding. Build and run: tests/fuzz/README.md.
#include <t7/io/t7_reader.hpp>
#include <t7/io/t7_writer.hpp>

#include <cstdint>
#include <cstdlib>
#include <set>
#include <string_view>
#include <vector>

namespace {

template <class T>
void touch(const t7::Tensor<T>& t) {
    if (t.dim() == 0) return;
    if (!t.storage().valid()) std::abort();
    int64_t last = t.storageOffset();
    for (int64_t d = 0; d < t.dim(); ++d) last += (t.size(d) - 1) * t.stride(d);
    if (t.storageOffset() < 0 || last >= t.storage().size()) std::abort();
    if (t.nElement() > (int64_t(1) << 16)) return; // huge zero-stride views: bounds suffice
    volatile double sum = 0;
    std::vector<int64_t> idx(size_t(t.dim()), 0);
    for (int64_t n = 0; n < t.nElement(); ++n) {
        int64_t off = t.storageOffset();
        for (int64_t d = 0; d < t.dim(); ++d) off += idx[size_t(d)] * t.stride(d);
        sum = sum + double(t.storage().data()[off]);
        for (int64_t d = t.dim() - 1; d >= 0; --d) {
            if (++idx[size_t(d)] < t.size(d)) break;
            idx[size_t(d)] = 0;
        }
    }
}

// Touches every tensor o holds, once each. Iterative: tables that refer to each
// other load as chains deeper than any stack.
void walk(const t7::Object& root) {
    std::set<const void*> seen;
    std::vector<t7::Object> todo{root};
    while (!todo.empty()) {
        t7::Object o = std::move(todo.back());
        todo.pop_back();
        if (!seen.insert(o.id()).second) continue;
        if (o.isTensor()) std::visit([](const auto& t) { touch(t); }, o.anyTensor());
        if (o.isTable())
            for (const auto& [k, v] : o.entries()) {
                todo.push_back(k);
                todo.push_back(v);
            }
    }
}

} // namespace

// No caching of freed storages: every free reaches AddressSanitizer.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
    t7::HostAllocator::instance().set_cache_limit(0);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view bytes(reinterpret_cast<const char*>(data), size);
    for (t7::Format fmt : {t7::Format::Binary, t7::Format::Ascii}) {
        t7::Object o;
        try {
            o = t7::deserialize(bytes, fmt, "fuzz");
        } catch (const t7::IOError&) {
            continue;
        }
        walk(o);
        std::string once = t7::serialize(o, fmt);
        std::string twice = t7::serialize(t7::deserialize(once, fmt, "fuzz (rewritten)"), fmt);
        if (once != twice) std::abort();
    }
    return 0;
}
