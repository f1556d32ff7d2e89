// t7::Object: any value a Torch7 file can hold (nil, number, boolean, string,
// table, and a tensor or storage of the seven types). Like a Lua value, an
// Object is a handle: copies share the same table, so a table or tensor that
// appears twice in a tree is one object, and is written once (t7_writer.hpp).
#pragma once

#include "../core/error.hpp"
#include "../tensor/tensor.hpp"

#include <atomic>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

namespace t7 {

namespace detail::t7file {
template <class>
class BasicReader;
}

// The seven Torch7 element types, in Torch7's order (Byte Char Short Int Long Float Double).
template <class T>
concept TorchElement = std::same_as<T, uint8_t> || std::same_as<T, int8_t> ||
    std::same_as<T, int16_t> || std::same_as<T, int32_t> || std::same_as<T, int64_t> ||
    std::same_as<T, float> || std::same_as<T, double>;

using AnyTensor = std::variant<ByteTensor, CharTensor, ShortTensor, IntTensor, LongTensor,
                               FloatTensor, DoubleTensor>;
using AnyStorage =
    std::variant<Storage<uint8_t>, Storage<int8_t>, Storage<int16_t>, Storage<int32_t>,
                 Storage<int64_t>, Storage<float>, Storage<double>>;

namespace detail {
// Calls f(T{}) for each of the seven element types, in Torch7's order.
template <class F>
void for_each_torch_type(F&& f) {
    f(uint8_t{});
    f(int8_t{});
    f(int16_t{});
    f(int32_t{});
    f(int64_t{});
    f(float{});
    f(double{});
}
} // namespace detail

// A template only so that its code (tables, and a variant over the seven
// tensor and storage types) is compiled in the programs that use it, not in
// every one that includes <t7/t7.hpp>. Users name it t7::Object.
template <class = void>
class BasicObject {
public:
    enum class Kind { Nil, Number, Boolean, String, Table, Tensor, Storage };
    using Entry = std::pair<BasicObject, BasicObject>; // (key, value) of a table

    // ---- construction --------------------------------------------------------------
    BasicObject() = default; // nil
    template <Arithmetic N>
    BasicObject(N v) : node_(std::make_shared<Node>(double(v))) {}
    template <std::same_as<bool> B> // not from pointers or integers
    BasicObject(B b) : node_(std::make_shared<Node>(bool(b))) {}
    BasicObject(std::string s) : node_(std::make_shared<Node>(std::move(s))) {}
    BasicObject(const char* s) : BasicObject(std::string(s)) {}
    BasicObject(std::string_view s) : BasicObject(std::string(s)) {}
    template <TorchElement T>
    BasicObject(Tensor<T> t) : node_(std::make_shared<Node>(AnyTensor(std::move(t)))) {}
    template <TorchElement T>
    BasicObject(Storage<T> s) : node_(std::make_shared<Node>(AnyStorage(std::move(s)))) {}
    BasicObject(AnyTensor t) : node_(std::make_shared<Node>(std::move(t))) {}
    BasicObject(AnyStorage s) : node_(std::make_shared<Node>(std::move(s))) {}

    // A Lua table from (key, value) pairs: Object::table({{"a", x}, {1, 2.5}}).
    // A non-empty className makes it an instance of a Torch class (e.g. "nn.Linear"),
    // which Torch7 writes as the class name followed by the table of its fields.
    static BasicObject table(std::initializer_list<Entry> entries = {}) {
        return table(std::vector<Entry>(entries));
    }
    static BasicObject table(const std::vector<Entry>& entries, std::string className = {}) {
        BasicObject o;
        o.node_ = std::make_shared<Node>(Table{});
        o.table_ref().className = std::move(className);
        for (const auto& [k, v] : entries) o.set(k, v);
        return o;
    }

    // ---- what it holds ---------------------------------------------------------------
    Kind kind() const { return node_ ? Kind(node_->value.index()) : Kind::Nil; }
    bool isNil() const { return kind() == Kind::Nil; }
    bool isNumber() const { return kind() == Kind::Number; }
    bool isBoolean() const { return kind() == Kind::Boolean; }
    bool isString() const { return kind() == Kind::String; }
    bool isTable() const { return kind() == Kind::Table; }
    bool isTensor() const { return kind() == Kind::Tensor; }
    bool isStorage() const { return kind() == Kind::Storage; }

    // "nil", "number", "boolean", "string", "table", a Torch class name for a class
    // instance ("nn.Linear"), or the tensor/storage type ("torch.FloatTensor").
    std::string typeName() const {
        switch (kind()) {
        case Kind::Nil:
            return "nil";
        case Kind::Number:
            return "number";
        case Kind::Boolean:
            return "boolean";
        case Kind::String:
            return "string";
        case Kind::Table:
            return className().empty() ? "table" : className();
        case Kind::Tensor:
            return std::visit([](const auto& t) { return t.typeName(); }, anyTensor());
        case Kind::Storage:
            return std::visit(
                [](const auto& s) {
                    using T = typename std::decay_t<decltype(s)>::value_type;
                    return torch_type_name<T, CPU>("Storage");
                },
                anyStorage());
        }
        return "?";
    }

    double number() const { return get<double>("number", "a number"); }
    bool boolean() const { return get<bool>("boolean", "a boolean"); }
    const std::string& string() const { return get<std::string>("string", "a string"); }
    const AnyTensor& anyTensor() const { return get<AnyTensor>("tensor", "a tensor"); }
    const AnyStorage& anyStorage() const { return get<AnyStorage>("storage", "a storage"); }

    // The tensor, if it holds a Tensor<T>; TypeError names both types otherwise.
    template <TorchElement T>
    Tensor<T> tensor() const {
        const AnyTensor& t = anyTensor();
        if (auto* p = std::get_if<Tensor<T>>(&t)) return *p;
        detail::fail<TypeError>("Object::tensor: holds a ", typeName(), ", not a ",
                                Tensor<T>::typeName());
    }
    template <TorchElement T>
    Storage<T> storage() const {
        const AnyStorage& s = anyStorage();
        if (auto* p = std::get_if<Storage<T>>(&s)) return *p;
        detail::fail<TypeError>("Object::storage: holds a ", typeName(), ", not a ",
                                torch_type_name<T, CPU>("Storage"));
    }

    // ---- tables ------------------------------------------------------------------------
    // The Torch class of a table that is a class instance ("" for a plain table).
    const std::string& className() const { return table_cref("className").className; }
    // Entries in the order they were set (the order in which they are written).
    const std::vector<Entry>& entries() const { return table_cref("entries").entries; }
    int64_t size() const { return int64_t(entries().size()); }
    std::vector<BasicObject> keys() const {
        std::vector<BasicObject> k;
        for (const auto& e : entries()) k.push_back(e.first);
        return k;
    }
    bool contains(const BasicObject& key) const {
        const Table& t = table_cref("contains");
        return key_ok(key) && t.index.count(key.key_rep());
    }
    // t.at("name") / t.at(1): IndexError if the key is absent.
    const BasicObject& at(const BasicObject& key) const {
        const Table& t = table_cref("at");
        if (key_ok(key)) {
            auto it = t.index.find(key.key_rep());
            if (it != t.index.end()) return t.entries[it->second].second;
        }
        detail::fail<IndexError>("Object::at: no key ", key.describe(), " in a ", typeName(),
                                 " of ", t.entries.size(), " entries");
    }
    // t[key] = value, as in Lua: a nil value removes the key (the last entry then
    // takes its place in entries()). The key must be
    // neither nil nor NaN, and a table may not (transitively) contain itself.
    BasicObject& set(const BasicObject& key, const BasicObject& value) {
        table_cref("set");
        if (!key_ok(key))
            detail::fail<Error>("Object::set: a table key cannot be ", key.describe());
        if (would_cycle(key) || would_cycle(value))
            detail::fail<Error>("Object::set: the ", would_cycle(key) ? "key" : "value",
                                " contains this table (cycles are not supported)");
        return set_unchecked(key, value);
    }

    // ---- identity and equality ---------------------------------------------------------
    // The same object (one table, one tensor handle), as Lua's rawequal on tables.
    bool sameAs(const BasicObject& o) const { return node_ == o.node_; }
    const void* id() const { return node_.get(); }
    // Lua's ==: by value for nil, numbers, booleans and strings; by identity otherwise.
    friend bool operator==(const BasicObject& a, const BasicObject& b) {
        if (a.kind() != b.kind()) return false;
        switch (a.kind()) {
        case Kind::Nil:
            return true;
        case Kind::Number:
            return a.number() == b.number();
        case Kind::Boolean:
            return a.boolean() == b.boolean();
        case Kind::String:
            return a.string() == b.string();
        default:
            return a.sameAs(b);
        }
    }

    // A short description for messages: 42, "name", true, nil, table, torch.FloatTensor.
    std::string describe() const {
        switch (kind()) {
        case Kind::Number:
            return detail::fmt_msg(number());
        case Kind::String:
            return "\"" + string() + "\"";
        case Kind::Boolean:
            return boolean() ? "true" : "false";
        default:
            return typeName();
        }
    }

private:
    template <class>
    friend class detail::t7file::BasicReader;

    // set() without its checks (the reader never builds cycles).
    BasicObject& set_unchecked(const BasicObject& key, const BasicObject& value) {
        Table& t = table_ref();
        auto rep = key.key_rep();
        auto it = t.index.find(rep);
        if (it != t.index.end()) {
            Entry& e = t.entries[it->second];
            held(e.second, -1);
            if (!value.isNil()) {
                held(value, +1);
                e.second = value;
            } else { // remove: the last entry takes its place
                held(e.first, -1);
                size_t pos = it->second;
                t.index.erase(it);
                if (pos + 1 != t.entries.size()) {
                    t.entries[pos] = std::move(t.entries.back());
                    t.index[t.entries[pos].first.key_rep()] = pos;
                }
                t.entries.pop_back();
            }
        } else if (!value.isNil()) {
            t.index.emplace(std::move(rep), t.entries.size());
            t.entries.emplace_back(key, value);
            held(key, +1);
            held(value, +1);
        }
        return *this;
    }

    struct Table {
        std::vector<Entry> entries;
        std::string className;
        // key -> position in entries (strings and numbers by value, others by identity)
        std::map<std::tuple<int, double, std::string, const void*>, size_t> index;
    };
    struct Node {
        // order matches Kind (Nil is the empty handle and never stored)
        std::variant<std::monostate, double, bool, std::string, Table, AnyTensor, AnyStorage> value;
        // How many table entries hold this table, as key or value: set() skips its
        // cycle search for a table no entry holds.
        std::atomic<int64_t> holders{0};
        template <class V>
        explicit Node(V v) : value(std::move(v)) {}

        // Frees the tables below this one without recursion: a table freed the
        // usual way frees its entries, which free theirs, one stack frame group per
        // level, and a chain of 10^5 nested tables (easily loaded from a small file
        // whose tables refer to each other) overflowed the stack. Here each table
        // whose last handle is ours gives up its entries to a work list first.
        ~Node() {
            std::vector<std::shared_ptr<Node>> orphans;
            release_tables(orphans);
            while (!orphans.empty()) {
                std::shared_ptr<Node> n = std::move(orphans.back());
                orphans.pop_back();
                if (n.use_count() == 1) n->release_tables(orphans);
            } // n is freed here with no table left in it
        }
        // Moves the tables this table holds (keys and values) to `out`, and clears it.
        void release_tables(std::vector<std::shared_ptr<Node>>& out) {
            auto* t = std::get_if<Table>(&value);
            if (!t) return;
            for (auto& [k, v] : t->entries)
                for (BasicObject* o : {&k, &v})
                    if (o->isTable()) {
                        held(*o, -1);
                        out.push_back(std::move(o->node_));
                    }
            t->entries.clear();
            t->index.clear();
        }
    };

    template <class V>
    const V& get(const char* op, const char* what) const {
        if (node_)
            if (auto* p = std::get_if<V>(&node_->value)) return *p;
        detail::fail<TypeError>("Object::", op, ": holds a ", typeName(), ", not ", what);
    }
    const Table& table_cref(const char* op) const { return get<Table>(op, "a table"); }
    Table& table_ref() { return const_cast<Table&>(table_cref("set")); }

    static bool key_ok(const BasicObject& k) {
        return !k.isNil() && !(k.isNumber() && std::isnan(k.number()));
    }
    std::tuple<int, double, std::string, const void*> key_rep() const {
        switch (kind()) {
        case Kind::Number:
            return {0, number() == 0 ? 0.0 : number(), {}, nullptr};
        case Kind::Boolean:
            return {1, boolean() ? 1.0 : 0.0, {}, nullptr};
        case Kind::String:
            return {2, 0.0, string(), nullptr};
        default:
            return {3, 0.0, {}, id()};
        }
    }
    // Whether storing o in this table would make a cycle. A cycle needs a path from o
    // to this table whose last step is a table entry holding this table: a table no
    // entry holds (the usual bottom-up build, a fresh table) needs no search, which
    // keeps building a chain of n tables O(n) rather than O(n^2).
    bool would_cycle(const BasicObject& o) const {
        if (!o.isTable()) return false;
        return o.sameAs(*this) || (node_->holders.load() > 0 && o.reaches(node_.get()));
    }
    // Counts an entry holding o (delta +1) or letting it go (-1), if o is a table.
    static void held(const BasicObject& o, int delta) {
        if (o.isTable()) o.node_->holders += delta;
    }
    // Whether this table is, or holds (as key or value, at any depth), the table `target`.
    bool reaches(const void* target) const {
        std::vector<const BasicObject*> todo{this};
        std::set<const void*> seen;
        while (!todo.empty()) {
            const BasicObject* o = todo.back();
            todo.pop_back();
            if (!o->isTable() || !seen.insert(o->id()).second) continue;
            if (o->id() == target) return true;
            for (const auto& [k, v] : o->entries()) {
                todo.push_back(&k);
                todo.push_back(&v);
            }
        }
        return false;
    }

    std::shared_ptr<Node> node_;
};

using Object = BasicObject<>;

} // namespace t7
