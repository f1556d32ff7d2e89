// The definitions behind t7_reader.hpp: the reader (BasicReader) and the entry
// points. libtensor7 compiles them (src/io.cpp); a translation unit sees them only
// when it does not link the library (t7_reader.hpp).
#pragma once

#include "t7_reader.hpp"

#include "file.hpp"
#include "limits.hpp"
#include "object.hpp"
#include "t7_format.hpp"
#include "t7_stream.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace t7 {
namespace detail::t7file {

// A template only so that its code (a reader for every element type) is
// compiled in the programs that read files, not in every one that includes
// <t7/t7.hpp>; the entry points below are templates for the same reason.
template <class = void>
class BasicReader {
public:
    BasicReader(std::string_view bytes, Format fmt, std::string name)
        : in_(bytes, fmt, std::move(name)) {}

    Object read_object() {
        size_t at = in_.offset();
        int32_t tag = in_.read1<int32_t>("an object's type tag");
        switch (tag) {
        case kNil:
            return Object();
        case kNumber:
            return Object(in_.read1<double>("a number"));
        case kBoolean:
            return Object(in_.read1<int32_t>("a boolean") == 1); // as File:readBool
        case kString:
            return Object(read_string("a string"));
        case kTable:
        case kTorch:
            return read_indexed(tag, at);
        case kFunction:
        case kLegacyRecurFunction:
        case kRecurFunction:
            in_.fail_at(at, "a Lua function (type tag ", tag, ") cannot be loaded");
        default:
            in_.fail_at(at, "unknown object type tag ", tag, " (expected 0 to 5)");
        }
    }

private:
    std::string read_string(const char* what) {
        size_t at = in_.offset();
        int32_t n = in_.read1<int32_t>("a string length");
        if (n < 0) in_.fail_at(at, "negative length ", n, " for ", what);
        if (size_t(n) > in_.remaining())
            in_.fail_at(at, what, " of length ", n, " is longer than the ", in_.remaining(),
                        " bytes left in the file");
        return in_.read_chars(size_t(n), what);
    }

    // TABLE or TORCH: a reference to an object already read, or a new one.
    Object read_indexed(int32_t tag, size_t at) {
        size_t index_at = in_.offset();
        int32_t index = in_.read1<int32_t>("a reference index");
        if (index >= 1 && size_t(index) <= objects_.size()) {
            const Slot& s = objects_[size_t(index) - 1];
            if (!s.done)
                in_.fail_at(index_at, "reference to object ", index,
                            " which is still being read (cyclic references are not supported)");
            return s.object;
        }
        if (index != int64_t(objects_.size()) + 1)
            in_.fail_at(index_at, "reference index ", index, " names no object read so far (",
                        objects_.size(), " objects read; a new object would be ",
                        objects_.size() + 1, ")");
        if (depth_ >= kMaxDepth)
            in_.fail_at(at, "objects nested deeper than ", kMaxDepth, " levels");
        ++depth_;
        objects_.push_back(Slot{});
        Object o = tag == kTable ? read_table() : read_torch(at);
        objects_[size_t(index) - 1] = Slot{o, true};
        --depth_;
        return o;
    }

    Object read_table() {
        size_t at = in_.offset();
        int32_t n = in_.read1<int32_t>("a table size");
        if (n < 0) in_.fail_at(at, "negative table size ", n);
        // each entry is at least two type tags
        if (uint64_t(n) * 2 > in_.remaining() / (in_.format() == Format::Binary ? 4 : 2))
            in_.fail_at(at, "table of ", n, " entries cannot fit in the ", in_.remaining(),
                        " bytes left in the file");
        Object t = Object::table();
        for (int32_t i = 0; i < n; ++i) {
            size_t key_at = in_.offset();
            Object k = read_object();
            if (k.isNil() || (k.isNumber() && k.number() != k.number()))
                in_.fail_at(key_at, "a table key cannot be ", k.describe());
            Object v = read_object();
            t.set_unchecked(k, v); // no cycles: references to unfinished objects fail above
        }
        return t;
    }

    Object read_torch(size_t at) {
        std::string version = read_string("a version string");
        std::string cls = version;
        if (version.size() > 2 && version.compare(0, 2, "V ") == 0)
            cls = read_string("a class name");
        // else: a file from before versions were written ("V 1"): the class name came first
        std::optional<Object> o;
        for_each_torch_type([&](auto v) {
            using T = decltype(v);
            if (o) return;
            if (cls == Tensor<T>::typeName())
                o = Object(read_tensor<T>(at));
            else if (cls == torch_type_name<T, CPU>("Storage"))
                o = Object(read_storage<T>());
        });
        if (o) return *o;
        // Any other class (nn.Linear, ...) is written as the table of its fields.
        size_t fields_at = in_.offset();
        Object fields = read_object();
        if (!fields.isTable() || !fields.className().empty())
            in_.fail_at(fields_at, "Torch class '", printable(cls),
                        "' is not a tensor or storage, ", "and its data is a ", fields.typeName(),
                        " where a table of fields is expected");
        Object inst = Object::table();
        inst.table_ref().className = cls;
        for (const auto& [k, v] : fields.entries()) inst.set_unchecked(k, v);
        return inst;
    }

    template <class T>
    Storage<T> read_storage() {
        size_t at = in_.offset();
        int64_t n = in_.read1<int64_t>("a storage size");
        if (n < 0) in_.fail_at(at, "negative storage size ", n);
        if (in_.min_bytes<T>(uint64_t(n)) > in_.remaining())
            in_.fail_at(at, torch_type_name<T, CPU>("Storage"), " of size ", n, " needs ",
                        in_.min_bytes<T>(uint64_t(n)), " bytes but only ", in_.remaining(),
                        " are left in the file");
        Storage<T> s(n);
        in_.read(s.data(), size_t(n), "storage elements");
        return s;
    }

    template <class T>
    Tensor<T> read_tensor(size_t at) {
        const std::string type = Tensor<T>::typeName();
        size_t dim_at = in_.offset();
        int32_t n = in_.read1<int32_t>("nDimension");
        if (n < 0) in_.fail_at(dim_at, type, " with negative nDimension ", n);
        in_.need<int64_t>(2 * uint64_t(n), "sizes and strides");
        Shape sizes(static_cast<size_t>(n)), strides(static_cast<size_t>(n));
        size_t sizes_at = in_.offset();
        in_.read(sizes.data(), size_t(n), "tensor sizes");
        size_t strides_at = in_.offset();
        in_.read(strides.data(), size_t(n), "tensor strides");
        size_t offset_at = in_.offset();
        int64_t offset1 = in_.read1<int64_t>("storage offset");
        size_t storage_at = in_.offset();
        Object so = read_object();

        bool empty = n == 0;
        for (int32_t d = 0; d < n; ++d) {
            if (sizes[d] < 0)
                in_.fail_at(sizes_at, type, " with negative size ", sizes[d], " in dimension ", d);
            if (sizes[d] == 0) empty = true; // no element (Torch7 ends its dimensions there)
            if (strides[d] < 0)
                in_.fail_at(strides_at, type, " with negative stride ", strides[d],
                            " in dimension ", d);
        }
        // A few bytes may declare 2^62 elements (all one element, by zero strides):
        // such a tensor would load, and no traversal of it would ever end.
        if (element_count(sizes) < 0)
            in_.fail_at(sizes_at, type, " of size ", sizes,
                        ": element count exceeds the limit of 2^48");
        if (!so.isNil() && !so.isStorage())
            in_.fail_at(storage_at, type, " has a ", so.typeName(),
                        " where its storage is expected");
        std::optional<Storage<T>> s;
        if (so.isStorage()) {
            const auto* p = std::get_if<Storage<T>>(&so.anyStorage());
            if (!p) in_.fail_at(storage_at, type, " has a ", so.typeName(), " as its storage");
            s = *p;
        }
        // No elements: the sizes kept, as written (a storage it held is still registered).
        if (empty) return n == 0 ? Tensor<T>() : Tensor<T>(sizes);
        if (!s) in_.fail_at(storage_at, type, " of size ", sizes, " has no storage");
        if (offset1 < 1 || offset1 > s->size())
            in_.fail_at(offset_at, type, " storage offset ", offset1, " (1-based) is outside its ",
                        so.typeName(), " of size ", s->size());
        int64_t last = offset1 - 1; // highest element the view reaches
        for (int32_t d = 0; d < n; ++d) {
            int64_t step;
            if (__builtin_mul_overflow(sizes[d] - 1, strides[d], &step) ||
                __builtin_add_overflow(last, step, &last) || last >= s->size())
                in_.fail_at(at, type, " of size ", sizes, ", stride ", strides, " and offset ",
                            offset1, " reaches past the end of its ", so.typeName(), " of size ",
                            s->size());
        }
        return Tensor<T>(*s, offset1 - 1, sizes, strides);
    }

    static std::string printable(std::string_view s) {
        std::string r(s.substr(0, 64));
        for (char& c : r)
            if (uint8_t(c) < 32 || uint8_t(c) > 126) c = '?';
        return r;
    }

    struct Slot {
        Object object;
        bool done = false;
    };
    Input in_;
    std::vector<Slot> objects_; // reference index i is objects_[i - 1]
    int depth_ = 0;
};

} // namespace detail::t7file

template <class>
Object deserialize(std::string_view bytes, Format fmt, const std::string& name) {
    return detail::t7file::BasicReader<>(bytes, fmt, name).read_object();
}
template <class>
Object deserialize(std::string_view bytes, const std::string& name) {
    return deserialize(bytes, detail::t7file::detect_format(bytes), name);
}

template <class>
Object deserializeFromStorage(const ByteStorage& s, Format fmt) {
    const std::string_view bytes(reinterpret_cast<const char*>(s.data()), size_t(s.size()));
    return deserialize(bytes, fmt, "deserializeFromStorage");
}

template <class>
Object loadObject(const std::string& path, Format fmt) {
    return deserialize(detail::read_file(path, "loadObject"), fmt, "loadObject('" + path + "')");
}
template <class>
Object loadObject(const std::string& path) {
    std::string bytes = detail::read_file(path, "loadObject");
    return deserialize(bytes, "loadObject('" + path + "')");
}

template <TorchElement T>
Tensor<T> load(const std::string& path) {
    Object o = loadObject(path);
    if (!o.isTensor())
        detail::fail<TypeError>("load<", dtype_traits<T>::name, ">: '", path, "' holds a ",
                                o.typeName(), ", not a ", Tensor<T>::typeName());
    if (!std::holds_alternative<Tensor<T>>(o.anyTensor()))
        detail::fail<TypeError>("load<", dtype_traits<T>::name, ">: '", path, "' holds a ",
                                o.typeName(), ", not a ", Tensor<T>::typeName(),
                                " (convert it after loading, e.g. with .to<T>())");
    return o.tensor<T>();
}
template <TorchElement T>
Tensor<T> load(const std::string& path, Format fmt) {
    Object o = loadObject(path, fmt);
    if (!o.isTensor() || !std::holds_alternative<Tensor<T>>(o.anyTensor()))
        detail::fail<TypeError>("load<", dtype_traits<T>::name, ">: '", path, "' holds a ",
                                o.typeName(), ", not a ", Tensor<T>::typeName());
    return o.tensor<T>();
}

} // namespace t7
