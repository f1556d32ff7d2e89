// The definitions behind t7_writer.hpp: the writer (BasicWriter) and the entry
// points. libtensor7 compiles them (src/io.cpp); a translation unit sees them only
// when it does not link the library (t7_writer.hpp).
#pragma once

#include "t7_writer.hpp"

#include "file.hpp"
#include "object.hpp"
#include "t7_format.hpp"
#include "t7_stream.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace t7 {
namespace detail::t7file {

// A template only so that its code is compiled where files are written (see
// BasicReader).
template <class = void>
class BasicWriter {
public:
    explicit BasicWriter(Format fmt) : out_(fmt) {}

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
    // index was written), true if its contents must follow. An Object met again is
    // found by its id, without building its key (a tensor's key is as long as its
    // dimensions: 10^5 references to a tensor of 10^5 dimensions took minutes);
    // `id` is null for a tensor's storage, which is no Object of its own.
    template <class MakeKey>
    bool begin(int32_t tag, const void* id, MakeKey&& make_key) {
        out_.write1<int32_t>(tag);
        if (id)
            if (auto it = by_id_.find(id); it != by_id_.end()) {
                out_.write1<int32_t>(it->second);
                return false;
            }
        auto [it, fresh] = seen_.emplace(make_key(), next_ + 1);
        if (id) by_id_.emplace(id, it->second);
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

    // n levels of nesting, counted for as long as it lives: a new TABLE or TORCH
    // object is one level, counted as the reader counts them (a class instance and
    // its table of fields are two, a tensor and its storage too), so that past
    // kMaxDepth the writer refuses what no reader would read back.
    class Level {
    public:
        Level(int& depth, int n) : depth_(depth), n_(n) {
            if (depth + n > kMaxDepth)
                fail<Error>("serialize: objects nested deeper than ", kMaxDepth, " levels");
            depth += n;
        }
        Level(const Level&) = delete;
        ~Level() { depth_ -= n_; }

    private:
        int& depth_;
        int n_;
    };

    void write_table(const Object& o) {
        const bool instance = !o.className().empty(); // a Torch class: name, then its fields
        if (!begin(instance ? kTorch : kTable, o.id(), [&] { return Key{0, ptr(o.id())}; })) return;
        Level level(depth_, instance ? 2 : 1);
        if (instance) {
            write_class(o.className());
            out_.write1<int32_t>(kTable);
            out_.write1<int32_t>(++next_); // a fresh table holding the fields
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
        const Storage<T>& s = t.storage();
        auto key = [&] {
            Key k{1, int64_t(type_index<T>()), s.valid() ? ptr(s.id()) : -ptr(id),
                  t.storageOffset(), t.dim()};
            k.insert(k.end(), t.sizes().begin(), t.sizes().end());
            k.insert(k.end(), t.strides().begin(), t.strides().end());
            return k;
        };
        if (!begin(kTorch, id, key)) return;
        Level level(depth_, 1);
        // Torch7 reads a negative stride as "contiguous": a reversed view is
        // written as a copy of its values in its order (checked once per tensor
        // written, not per reference to it).
        const bool reversed =
            std::any_of(t.strides().begin(), t.strides().end(), [](int64_t v) { return v < 0; });
        const Tensor<T> w = reversed ? t.clone() : t;
        write_class(w.typeName());
        out_.write1<int32_t>(int32_t(w.dim()));
        out_.write(w.sizes().data(), w.sizes().size());
        out_.write(w.strides().data(), w.strides().size());
        out_.write1<int64_t>(w.storageOffset() + 1);
        if (w.storage().valid())
            write_storage(w.storage(), nullptr);
        else
            out_.write1<int32_t>(kNil);
    }

    // id: the Object holding the storage, or null for a tensor's storage.
    template <class T>
    void write_storage(const Storage<T>& s, const void* id) {
        auto key = [&] {
            return Key{2, int64_t(type_index<T>()), s.valid() ? ptr(s.id()) : -ptr(id)};
        };
        if (!begin(kTorch, id, key)) return;
        Level level(depth_, 1);
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
    std::unordered_map<const void*, int32_t> by_id_; // Objects already written
    int32_t next_ = 0;
    int depth_ = 0;
};

} // namespace detail::t7file

template <class>
std::string serialize(const Object& o, Format fmt) {
    detail::t7file::BasicWriter<> w(fmt);
    w.write_object(o);
    return w.take();
}

template <class>
ByteStorage serializeToStorage(const Object& o, Format fmt) {
    const std::string bytes = serialize(o, fmt);
    ByteStorage s(int64_t(bytes.size()));
    if (!bytes.empty()) std::memcpy(s.data(), bytes.data(), bytes.size());
    return s;
}

template <class>
void saveObject(const std::string& path, const Object& o, Format fmt) {
    detail::write_file(path, serialize(o, fmt), "saveObject");
}

template <TorchElement T>
void save(const std::string& path, const Tensor<T>& x, Format fmt) {
    saveObject(path, Object(x), fmt);
}

} // namespace t7
