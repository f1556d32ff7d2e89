// One .npy file for a DistTensor, written and read in parallel with MPI-IO:
//
//   t7::mpi::saveNpy("u.npy", u);                                   // collective
//   auto v = t7::mpi::loadNpy<float>(world, "u.npy", {1, 1});       // collective
//
// The file is NumPy's format (version 1.0, or 2.0 for a header longer than
// 65535 bytes; C order, little-endian), the same bytes t7::saveNpy writes for
// the gathered tensor. Rank 0 writes (reads) the header; every rank writes
// (reads) its block with one collective call (MPI_File_write_at_all /
// MPI_File_read_at_all) through two subarray datatypes: the block's place in
// the file and in the rank's storage with its halos, so nothing is packed by
// tensor7.
#pragma once

#include "dist_tensor.hpp"

#include <mpi.h>

#include <bit>
#include <cstring>
#include <string>
#include <vector>

namespace t7::mpi {

namespace detail {

// NumPy's type string of T ("<f4", "|u1", ...).
template <class T>
std::string npy_descr() {
    static_assert(!std::is_same_v<T, Half>, "t7::mpi::saveNpy/loadNpy: Half is not supported");
    const char order = sizeof(T) == 1 ? '|' : '<';
    const char kind = std::is_floating_point_v<T> ? 'f' : std::is_signed_v<T> ? 'i' : 'u';
    return std::string{order, kind} + std::to_string(sizeof(T));
}

// The header t7::toNpy writes for a tensor of these sizes (magic, version,
// length, the dict padded with spaces and a newline to a multiple of 64 bytes).
template <class T>
std::string npy_header(const Shape& sizes) {
    std::string shape;
    for (size_t d = 0; d < sizes.size(); ++d)
        shape += (d ? ", " : "(") + std::to_string(sizes[d]) + (sizes.size() == 1 ? ",)" : "");
    if (sizes.size() > 1) shape += ")";
    std::string dict =
        "{'descr': '" + npy_descr<T>() + "', 'fortran_order': False, 'shape': " + shape + ", }";
    const std::string first = std::to_string(sizes[0]);
    dict.append(21 - std::min<size_t>(21, first.size()), ' ');
    const size_t hlen = dict.size() + 1;
    auto padding = [&](size_t prefix) { return (64 - (prefix + hlen) % 64) % 64; };
    const int major = hlen + padding(10) <= 65535 ? 1 : 2;
    const size_t prefix = major == 1 ? 10 : 12;
    dict.append(padding(prefix), ' ');
    dict += '\n';
    std::string out("\x93NUMPY", 6);
    out += char(major);
    out += char(0);
    const uint64_t n = dict.size();
    for (size_t i = 0; i < prefix - 8; ++i) out += char((n >> (8 * i)) & 0xff);
    return out + dict;
}

// The three entries of a header's dict, read strictly enough for the files
// NumPy and tensor7 write; false (with why) otherwise.
struct NpyHeader {
    std::string descr;
    bool fortran = false;
    std::vector<int64_t> shape;
};
inline bool parse_npy_dict(const std::string& t, NpyHeader& h, std::string& why) {
    auto value_at = [&](const char* key) -> size_t {
        for (const char q : {'\'', '"'}) {
            const std::string k = std::string(1, q) + key + q;
            size_t at = t.find(k);
            if (at == std::string::npos) continue;
            at = t.find(':', at + k.size());
            if (at == std::string::npos) return at;
            ++at;
            while (at < t.size() && t[at] == ' ') ++at;
            return at;
        }
        return std::string::npos;
    };
    size_t at = value_at("descr");
    if (at == std::string::npos || at >= t.size() || (t[at] != '\'' && t[at] != '"'))
        return why = "no 'descr' string in the header", false;
    const size_t end = t.find(t[at], at + 1);
    if (end == std::string::npos) return why = "an unterminated 'descr'", false;
    h.descr = t.substr(at + 1, end - at - 1);
    at = value_at("fortran_order");
    if (at == std::string::npos) return why = "no 'fortran_order' in the header", false;
    if (t.compare(at, 4, "True") == 0)
        h.fortran = true;
    else if (t.compare(at, 5, "False") != 0)
        return why = "'fortran_order' is neither True nor False", false;
    at = value_at("shape");
    if (at == std::string::npos || at >= t.size() || t[at] != '(')
        return why = "no 'shape' tuple in the header", false;
    ++at;
    for (;;) {
        while (at < t.size() && (t[at] == ' ' || t[at] == ',')) ++at;
        if (at >= t.size()) return why = "an unterminated 'shape'", false;
        if (t[at] == ')') break;
        if (t[at] < '0' || t[at] > '9') return why = "a 'shape' entry that is not a size", false;
        int64_t v = 0;
        while (at < t.size() && t[at] >= '0' && t[at] <= '9') {
            if (v > (std::numeric_limits<int64_t>::max() - 9) / 10)
                return why = "a size too large in 'shape'", false;
            v = v * 10 + (t[at++] - '0');
        }
        h.shape.push_back(v);
    }
    return true;
}

// The subarray types of this rank's block: in the file (the global row-major
// array) and in the local storage (the block inside its halos).
struct BlockTypes {
    MPI_Datatype file = MPI_DATATYPE_NULL, mem = MPI_DATATYPE_NULL;
    BlockTypes() = default;
    BlockTypes(const BlockTypes&) = delete;
    BlockTypes& operator=(const BlockTypes&) = delete;
    ~BlockTypes() {
        if (file != MPI_DATATYPE_NULL) MPI_Type_free(&file);
        if (mem != MPI_DATATYPE_NULL) MPI_Type_free(&mem);
    }
};
template <class T>
void block_types(const DistState<T>& s, BlockTypes& bt, const char* op) {
    const size_t n = s.sizes.size();
    std::vector<int> gs(n), ls(n), st(n), ws(n), hs(n);
    for (size_t d = 0; d < n; ++d) {
        check_count(s.sizes[d], op);
        check_count(s.local[d] + 2 * s.halo[d], op);
        gs[d] = int(s.sizes[d]), ls[d] = int(s.local[d]), st[d] = int(s.offset[d]);
        ws[d] = int(s.local[d] + 2 * s.halo[d]), hs[d] = int(s.halo[d]);
    }
    const MPI_Datatype b = base_type<T>();
    check(
        MPI_Type_create_subarray(int(n), gs.data(), ls.data(), st.data(), MPI_ORDER_C, b, &bt.file),
        op);
    check(MPI_Type_commit(&bt.file), op);
    check(
        MPI_Type_create_subarray(int(n), ws.data(), ls.data(), hs.data(), MPI_ORDER_C, b, &bt.mem),
        op);
    check(MPI_Type_commit(&bt.mem), op);
}

// An open file, closed when it goes (collective, as MPI_File_close is).
struct File {
    MPI_File fh = MPI_FILE_NULL;
    File() = default;
    File(const File&) = delete;
    File& operator=(const File&) = delete;
    ~File() {
        if (fh != MPI_FILE_NULL) MPI_File_close(&fh);
    }
};

// Opens path on every rank of comm; IOError on every rank when any rank failed.
// For writing, the hint cb_nodes = 1 (one aggregator): Open MPI 4.1's OMPIO
// with its default collective component (fcoll vulcan) and several aggregators
// writes stale bytes over parts of other ranks' blocks now and then
// (open-mpi/ompi#12718; seen here on 3 and 4 ranks, about one run in three).
inline void open_all(const Communicator& comm, const std::string& path, int mode, File& f,
                     const char* op, bool writing) {
    MPI_Info info = MPI_INFO_NULL;
    if (writing) {
        MPI_Info_create(&info);
        MPI_Info_set(info, "cb_nodes", "1");
    }
    const int rc = MPI_File_open(comm.native(), path.c_str(), mode, info, &f.fh);
    if (info != MPI_INFO_NULL) MPI_Info_free(&info);
    int bad = rc != MPI_SUCCESS;
    check(MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, comm.native()), op);
    if (bad) {
        if (rc == MPI_SUCCESS) MPI_File_close(&f.fh);
        f.fh = MPI_FILE_NULL;
        fail<IOError>(op, ": cannot open '", path, "'",
                      rc != MPI_SUCCESS ? ": " + error_string(rc) : std::string(" on some rank"));
    }
}
inline void io_check(int rc, const char* op, const std::string& path, const char* call) {
    if (rc != MPI_SUCCESS) fail<IOError>(op, ": ", call, " on '", path, "': ", error_string(rc));
}

} // namespace detail

// Writes u to one .npy file (collective over u's communicator): every rank its
// block (MPI_File_write_at_all), then rank 0 the header. IOError when the file
// cannot be opened (on every rank) or a write fails.
template <class T>
void saveNpy(const std::string& path, const DistTensor<T>& u) {
    static_assert(std::endian::native == std::endian::little,
                  "t7::mpi::saveNpy writes little-endian files from a little-endian machine");
    constexpr const char* op = "t7::mpi::saveNpy";
    auto& s = detail::WindowAccess::tensor(u);
    const std::string head = detail::npy_header<T>(s.sizes);
    detail::BlockTypes bt;
    detail::block_types(s, bt, op);
    detail::File f;
    detail::open_all(s.cart, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, f, op, true);
    detail::io_check(MPI_File_set_size(f.fh, 0), op, path, "MPI_File_set_size");
    // Every rank's truncation done before any rank writes.
    detail::check(MPI_Barrier(s.cart.native()), "t7::mpi::saveNpy: MPI_Barrier");
    detail::io_check(MPI_File_set_view(f.fh, MPI_Offset(head.size()), detail::base_type<T>(),
                                       bt.file, "native", MPI_INFO_NULL),
                     op, path, "MPI_File_set_view");
    detail::io_check(MPI_File_write_at_all(f.fh, 0, s.data.data(), 1, bt.mem, MPI_STATUS_IGNORE),
                     op, path, "MPI_File_write_at_all");
    // The header last, once every block is in the file (sync, barrier, sync:
    // MPI-IO's rule for accesses of different ranks to one file), so that no
    // read-modify-write of an MPI-IO layer around the header meets a block
    // being written.
    detail::io_check(MPI_File_sync(f.fh), op, path, "MPI_File_sync");
    detail::check(MPI_Barrier(s.cart.native()), "t7::mpi::saveNpy: MPI_Barrier");
    detail::io_check(MPI_File_sync(f.fh), op, path, "MPI_File_sync");
    detail::io_check(MPI_File_set_view(f.fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL), op,
                     path, "MPI_File_set_view (header)");
    if (s.cart.rank() == 0)
        detail::io_check(
            MPI_File_write_at(f.fh, 0, head.data(), int(head.size()), MPI_BYTE, MPI_STATUS_IGNORE),
            op, path, "MPI_File_write_at (header)");
}

// Reads a .npy file of T's dtype (C order) into a new DistTensor of its sizes
// (collective over comm): rank 0 reads the header and broadcasts the sizes,
// every rank reads its block (MPI_File_read_at_all). IOError on every rank for
// a file that cannot be opened, is not such a .npy file, or is too short.
template <class T>
DistTensor<T> loadNpy(const Communicator& comm, const std::string& path, const Shape& halo = {},
                      const Shape& grid = {}) {
    static_assert(std::endian::native == std::endian::little,
                  "t7::mpi::loadNpy reads little-endian files on a little-endian machine");
    constexpr const char* op = "t7::mpi::loadNpy";
    detail::File f;
    detail::open_all(comm, path, MPI_MODE_RDONLY, f, op, false);
    constexpr int hdr = 35; // status, data offset, dims, up to 32 sizes
    std::vector<int64_t> info(hdr, 0);
    std::string why;
    if (comm.rank() == 0) {
        auto bad = [&](std::string w) { why = std::move(w), info[0] = -1; };
        MPI_Offset size = 0;
        MPI_File_get_size(f.fh, &size);
        char pre[12] = {};
        const MPI_Offset got = std::min<MPI_Offset>(size, 12);
        MPI_File_read_at(f.fh, 0, pre, int(got), MPI_BYTE, MPI_STATUS_IGNORE);
        if (got < 10 || std::memcmp(pre, "\x93NUMPY", 6) != 0) {
            bad("not a .npy file (no \\x93NUMPY magic)");
        } else if (pre[6] < 1 || pre[6] > 3 || pre[7] != 0) {
            bad("unsupported .npy version");
        } else {
            const size_t lb = pre[6] == 1 ? 2 : 4;
            uint64_t hlen = 0;
            for (size_t i = 0; i < lb; ++i) hlen |= uint64_t(uint8_t(pre[8 + i])) << (8 * i);
            const int64_t at = int64_t(8 + lb);
            if (int64_t(hlen) > int64_t(size) - at || hlen > uint64_t(INT_MAX)) {
                bad("truncated file: the header is cut");
            } else {
                std::string text(size_t(hlen), '\0');
                MPI_File_read_at(f.fh, at, text.data(), int(hlen), MPI_BYTE, MPI_STATUS_IGNORE);
                detail::NpyHeader h;
                std::string w;
                int64_t n = 1;
                if (!detail::parse_npy_dict(text, h, w)) {
                    bad(w);
                } else if (h.descr != detail::npy_descr<T>()) {
                    bad("dtype '" + h.descr + "', expected '" + detail::npy_descr<T>() + "'");
                } else if (h.fortran) {
                    bad("Fortran order is not supported");
                } else if (h.shape.empty() || h.shape.size() > hdr - 3) {
                    bad("a shape of " + std::to_string(h.shape.size()) + " dimensions");
                } else {
                    for (int64_t v : h.shape) n *= v;
                    const int64_t need = at + int64_t(hlen) + n * int64_t(sizeof(T));
                    if (int64_t(size) < need) {
                        bad("truncated file: " + std::to_string(size) + " bytes, " +
                            std::to_string(need) + " needed");
                    } else {
                        info[1] = at + int64_t(hlen);
                        info[2] = int64_t(h.shape.size());
                        for (size_t d = 0; d < h.shape.size(); ++d) info[3 + d] = h.shape[d];
                    }
                }
            }
        }
    }
    detail::check(MPI_Bcast(info.data(), hdr, MPI_INT64_T, 0, comm.native()),
                  "t7::mpi::loadNpy: MPI_Bcast (header)");
    if (info[0] < 0)
        detail::fail<IOError>(op, "('", path, "'): ",
                              comm.rank() == 0 ? why : std::string("see the error on rank 0"));
    const Shape sizes(info.data() + 3, info.data() + 3 + info[2]);
    DistTensor<T> u(comm, sizes, halo, grid);
    auto& s = detail::WindowAccess::tensor(u);
    detail::BlockTypes bt;
    detail::block_types(s, bt, op);
    detail::io_check(MPI_File_set_view(f.fh, MPI_Offset(info[1]), detail::base_type<T>(), bt.file,
                                       "native", MPI_INFO_NULL),
                     op, path, "MPI_File_set_view");
    detail::io_check(MPI_File_read_at_all(f.fh, 0, s.data.data(), 1, bt.mem, MPI_STATUS_IGNORE), op,
                     path, "MPI_File_read_at_all");
    u.markStale();
    return u;
}

} // namespace t7::mpi
