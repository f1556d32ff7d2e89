// t7_convert: shows what a Torch7 file holds, and converts its tensors to NumPy.
//
//   t7_convert FILE.t7                  print the contents: a tensor or storage as
//                                       Torch7 prints it; a table as a tree of its
//                                       entries, then each tensor in it in full
//   t7_convert FILE.t7 OUT.npy [PATH]   write the tensor (or the tensor at PATH in
//                                       the table, keys joined by dots: layers.1.weight)
//                                       as OUT.npy
//
// Binary and ascii files are told apart by their first bytes.
#include <t7/t7.hpp>

#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

// A Lua key or number as Lua's tostring writes it (%.14g).
std::string lua_string(const t7::Object& o) {
    if (o.isNumber()) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.14g", o.number());
        return buf;
    }
    if (o.isString()) return o.string();
    if (o.isBoolean()) return o.boolean() ? "true" : "false";
    return o.typeName();
}

// "DoubleTensor - size: 4x3", as Torch7's REPL summarises a tensor in a table.
std::string summary(const t7::Object& o) {
    auto short_name = [](std::string s) { return s.rfind("torch.", 0) == 0 ? s.substr(6) : s; };
    if (o.isTensor())
        return std::visit(
            [&](const auto& t) {
                std::ostringstream os;
                os << short_name(t.typeName());
                if (t.dim() == 0)
                    os << " - empty";
                else
                    os << " - size: " << t.sizes();
                return os.str();
            },
            o.anyTensor());
    if (o.isStorage())
        return std::visit(
            [&](const auto& s) {
                return short_name(o.typeName()) + " - size: " + std::to_string(s.size());
            },
            o.anyStorage());
    if (o.isString()) return "\"" + o.string() + "\"";
    return lua_string(o);
}

struct Printer {
    std::ostream& os;
    std::vector<std::pair<std::string, t7::Object>> tensors; // (path, tensor or storage)

    void table(const t7::Object& t, const std::string& path, int indent) {
        std::string pad(size_t(indent), ' ');
        if (!t.className().empty()) os << t.className() << " ";
        os << "{\n";
        for (const auto& [k, v] : t.entries()) {
            std::string key = lua_string(k);
            std::string child = path.empty() ? key : path + "." + key;
            os << pad << "  " << key << " : ";
            if (v.isTable()) {
                table(v, child, indent + 2);
            } else {
                os << summary(v) << "\n";
                if (v.isTensor() || v.isStorage()) tensors.emplace_back(child, v);
            }
        }
        os << pad << "}\n";
    }
};

void print_value(std::ostream& os, const t7::Object& o) {
    if (o.isTensor())
        std::visit([&](const auto& t) { os << t; }, o.anyTensor());
    else if (o.isStorage())
        std::visit([&](const auto& s) { os << s; }, o.anyStorage());
    else
        os << summary(o) << "\n";
}

void print(std::ostream& os, const t7::Object& o) {
    if (!o.isTable()) return print_value(os, o);
    Printer p{os, {}};
    p.table(o, "", 0);
    for (const auto& [path, v] : p.tensors) {
        os << "\n" << path << " =\n";
        print_value(os, v);
    }
}

// The object at a dotted path of keys ("layers.1.weight"); a part that reads as a
// number names a number key when the table has one.
t7::Object find(const t7::Object& root, const std::string& path) {
    t7::Object o = root;
    std::stringstream parts(path);
    std::string part;
    while (std::getline(parts, part, '.')) {
        if (!o.isTable())
            throw t7::IndexError("'" + path + "': '" + part + "' is looked up in a " +
                                 o.typeName());
        char* end = nullptr;
        double n = std::strtod(part.c_str(), &end);
        bool numeric = !part.empty() && end && *end == '\0';
        o = numeric && o.contains(n) ? o.at(n) : o.at(part);
    }
    return o;
}

int usage() {
    std::cerr << "usage: t7_convert FILE.t7                 print what the file holds\n"
                 "       t7_convert FILE.t7 OUT.npy [PATH]  write its tensor (or the one at\n"
                 "                                          PATH, e.g. layers.1.weight) as .npy\n";
    return 2;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2 || argc > 4 || std::string(argv[1]) == "-h" || std::string(argv[1]) == "--help")
        return usage();
    try {
        t7::Object o = t7::loadObject(argv[1]);
        if (argc == 2) {
            print(std::cout, o);
            return 0;
        }
        t7::Object x = argc == 4 ? find(o, argv[3]) : o;
        if (!x.isTensor()) {
            std::cerr << "t7_convert: " << (argc == 4 ? argv[3] : argv[1]) << " holds a "
                      << x.typeName() << ", not a tensor\n";
            return 1;
        }
        std::visit([&](const auto& t) { t7::saveNpy(argv[2], t); }, x.anyTensor());
        std::cout << "wrote " << argv[2] << ": " << summary(x) << "\n";
        return 0;
    } catch (const t7::Error& e) {
        std::cerr << "t7_convert: " << e.what() << "\n";
        return 1;
    }
}
