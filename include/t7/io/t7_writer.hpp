// Writing Torch7 files: t7::saveObject / t7::save / t7::serialize, byte for byte as
// Torch7's torch.save writes them. A tensor is written as Torch7 does: sizes,
// strides, 1-based offset and its whole storage. Objects met twice are written once
// and then referred to by index: the same table or Object, a storage shared by
// several tensors, and tensors that are the same view (same storage, offset, sizes
// and strides) of it.
#pragma once

#include "file.hpp"
#include "object.hpp"
#include "t7_format.hpp"
#include "t7_stream.hpp"

#include <map>
#include <string>
#include <vector>

namespace t7 {
namespace detail::t7file {

class Writer {
public:
    explicit Writer(Format fmt) : out_(fmt) {}

    void write_object(const Object& o) {
        switch (o.kind()) {
        case Object::Kind::Nil:
            out_.write1<int32_t>(kNil);
            return;
        case Object::Kind::Number:
            out_.write1<int32_t>(kNumber);
            out_.write1<double>(o.number());
            return;
        case Object::Kind::Boolean:
            out_.write1<int32_t>(kBoolean);
            out_.write1<int32_t>(o.boolean() ? 1 : 0);
            return;
        case Object::Kind::String:
            out_.write1<int32_t>(kString);
            write_string(o.string());
            return;
        case Object::Kind::Table:
            write_table(o);
            return;
        case Object::Kind::Tensor:
            std::visit([&](const auto& t) { write_tensor(t, o.id()); }, o.anyTensor());
            return;
        case Object::Kind::Storage:
            std::visit([&](const auto& s) { write_storage(s, o.id()); }, o.anyStorage());
            return;
        }
    }

    std::string take() { return out_.take(); }

private:
    // Identity of an object for the reference index: [kind, ...].
    using Key = std::vector<int64_t>;

    static int64_t ptr(const void* p) { return int64_t(reinterpret_cast<intptr_t>(p)); }

    // Writes the tag and index; false if the object was written before (only its
    // index was written), true if its contents must follow.
    bool begin(int32_t tag, Key key) {
        out_.write1<int32_t>(tag);
        auto [it, fresh] = seen_.emplace(std::move(key), next_ + 1);
        if (!fresh) {
            out_.write1<int32_t>(it->second);
            return false;
        }
        out_.write1<int32_t>(++next_);
        return true;
    }
    void write_string(const std::string& s) {
        if (s.size() > size_t(INT32_MAX))
            fail<IOError>("serialize: string of ", s.size(), " bytes is too long for Torch7");
        out_.write1<int32_t>(int32_t(s.size()));
        out_.write_chars(s);
    }
    void write_class(const std::string& name) {
        write_string("V 1");
        write_string(name);
    }

    struct Depth {
        int& d;
        explicit Depth(int& depth) : d(depth) {
            if (++d > kMaxDepth) {
                --d;
                fail<Error>("serialize: objects nested deeper than ", kMaxDepth, " levels");
            }
        }
        ~Depth() { --d; }
    };

    void write_table(const Object& o) {
        Depth depth(depth_);
        if (!o.className().empty()) { // a Torch class instance: name, then its fields
            if (!begin(kTorch, {0, ptr(o.id())})) return;
            write_class(o.className());
            out_.write1<int32_t>(kTable);
            out_.write1<int32_t>(++next_); // a fresh table holding the fields
        } else if (!begin(kTable, {0, ptr(o.id())})) {
            return;
        }
        const auto& entries = o.entries();
        out_.write1<int32_t>(int32_t(entries.size()));
        for (const auto& [k, v] : entries) {
            write_object(k);
            write_object(v);
        }
    }

    template <class T>
    void write_tensor(const Tensor<T>& t, const void* id) {
        Depth depth(depth_);
        const Storage<T>& s = t.storage();
        Key key{1, int64_t(type_index<T>()), s.valid() ? ptr(s.id()) : -ptr(id), t.storageOffset(),
                t.dim()};
        key.insert(key.end(), t.sizes().begin(), t.sizes().end());
        key.insert(key.end(), t.strides().begin(), t.strides().end());
        if (!begin(kTorch, std::move(key))) return;
        write_class(t.typeName());
        out_.write1<int32_t>(int32_t(t.dim()));
        out_.write(t.sizes().data(), t.sizes().size());
        out_.write(t.strides().data(), t.strides().size());
        out_.write1<int64_t>(t.storageOffset() + 1);
        if (s.valid())
            write_storage(s, nullptr);
        else
            out_.write1<int32_t>(kNil);
    }

    template <class T>
    void write_storage(const Storage<T>& s, const void* id) {
        if (!begin(kTorch, {2, int64_t(type_index<T>()), s.valid() ? ptr(s.id()) : -ptr(id)}))
            return;
        write_class(torch_type_name<T, CPU>("Storage"));
        out_.write1<int64_t>(s.size());
        out_.write(s.data(), size_t(s.size()));
    }

    template <class T>
    static int type_index() {
        int i = 0, found = -1;
        for_each_torch_type([&](auto v) {
            if (std::is_same_v<decltype(v), T>) found = i;
            ++i;
        });
        return found;
    }

    Output out_;
    std::map<Key, int32_t> seen_;
    int32_t next_ = 0;
    int depth_ = 0;
};

} // namespace detail::t7file

// The bytes of a Torch7 file holding `o` (torch.serialize).
inline std::string serialize(const Object& o, Format fmt = Format::Binary) {
    detail::t7file::Writer w(fmt);
    w.write_object(o);
    return w.take();
}

// torch.save(path, o [, 'binary' | 'ascii']).
inline void saveObject(const std::string& path, const Object& o, Format fmt = Format::Binary) {
    detail::write_file(path, serialize(o, fmt), "saveObject");
}

template <TorchElement T>
void save(const std::string& path, const Tensor<T>& x, Format fmt = Format::Binary) {
    saveObject(path, Object(x), fmt);
}

} // namespace t7
