// Tensor<T, D>: a strided view (storage + offset + sizes + strides) of a Storage.
// Handles have reference semantics (copy-constructing shares the storage, like
// torch.Tensor(a)); assignment has value semantics (evaluates into this memory).
// View operations are defined in views.hpp, copies in copy.hpp, expression
// assignment in the evaluators.
#pragma once

#include "../core/error.hpp"
#include "../core/shape.hpp"
#include "../core/size_math.hpp"
#include "../core/storage.hpp"
#include "fwd.hpp"
#include "iterator.hpp"

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace t7 {

class Generator; // math/random.hpp

struct all_t;
struct slice;

template <class T, class D>
class Tensor : public ExprTag {
public:
    using value_type = T;
    using device_type = D;

    // ---- construction -------------------------------------------------------
    Tensor() = default;
    template <std::integral... I>
    requires(sizeof...(I) > 0) explicit Tensor(I... sizes) : Tensor(Shape{int64_t(sizes)...}) {}
    explicit Tensor(const Shape& sizes) { allocate(sizes, Shape(sizes.size(), -1)); }
    // Strides may be 0; a negative stride means "contiguous for this dimension".
    Tensor(const Shape& sizes, const Shape& strides) { allocate(sizes, strides); }
    // Braced sizes (and strides): FloatTensor({2, 3}), FloatTensor({4}, {0}). Without
    // these, braces also convert to a Tensor or a Storage: ambiguous or ill-formed.
    template <std::integral I>
    explicit Tensor(std::initializer_list<I> sizes) : Tensor(Shape(sizes.begin(), sizes.end())) {}
    template <std::integral I, std::integral J>
    Tensor(std::initializer_list<I> sizes, std::initializer_list<J> strides)
        : Tensor(Shape(sizes.begin(), sizes.end()), Shape(strides.begin(), strides.end())) {}
    Tensor(Storage<T, D> s, int64_t offset, const Shape& sizes = {}, const Shape& strides = {}) {
        set(std::move(s), offset, sizes, strides);
    }
    // An expression converts to a new tensor of its shape: `FloatTensor y = a * b;`
    // runs one fused pass. (Tensors are excluded: Tensor(const Tensor&) shares.)
    template <Expression E>
    requires(!is_tensor_v<E>) Tensor(const E& e) { assign(e); }
    Tensor(const Tensor&) = default; // shares the storage
    Tensor(Tensor&&) noexcept = default;
    ~Tensor() = default;

    // ---- value assignment (evaluates into this tensor's memory) ----------------
    Tensor& operator=(const Tensor& src) { return assign(src); }
    // A temporary assigned to an empty handle (no dimensions, no storage) is
    // adopted when it alone holds memory it owns, contiguous from its start to
    // its end, as a new tensor's (b = a.clone(): one copy, not two). Anything
    // else (a view, a tensor sharing its storage with another handle, a pending
    // product, a non-empty destination) is written as from an lvalue.
    Tensor& operator=(Tensor&& src) {
        if (dim() == 0 && !storage_.valid() && src.storage_.use_count() == 1 &&
            src.storage_.ownsStorage() && !src.storage_.pending() && src.offset_ == 0 &&
            src.nElement() == src.storage_.size() && src.isContiguous()) {
            storage_ = std::move(src.storage_);
            offset_ = src.offset_;
            sizes_ = std::move(src.sizes_);
            strides_ = std::move(src.strides_);
            src.offset_ = 0;
            src.sizes_ = Shape{};
            src.strides_ = Shape{};
            return *this;
        }
        return assign(src);
    }
    template <Expression E>
    Tensor& operator=(const E& e) {
        return assign(e);
    }
    template <Arithmetic S>
    Tensor& operator=(S v) {
        return fill(convert<T>(v));
    }
    template <Expression E>
    Tensor& assign(const E& e); // eval/assign.hpp

    // ---- queries ---------------------------------------------------------------
    int64_t dim() const { return int64_t(sizes_.size()); }
    int64_t nDimension() const { return dim(); }
    int64_t size(int64_t d) const { return sizes_[wrap_dim(d, "size")]; }
    int64_t stride(int64_t d) const { return strides_[wrap_dim(d, "stride")]; }
    const Shape& sizes() const { return sizes_; }
    const Shape& strides() const { return strides_; }
    int64_t nElement() const { return sizes_.empty() ? 0 : sizes_.numel(); }
    int64_t numel() const { return nElement(); }
    const Storage<T, D>& storage() const { return storage_; }
    int64_t storageOffset() const { return offset_; }
    T* data() const {
        T* p = storage_.data(); // one test of a pending storage, not two
        return p ? p + offset_ : nullptr;
    }
    int getDevice() const { return storage_.device(); }
    // False when the memory belongs to the caller (t7::fromBlob, t7::fromEigen,
    // Storage::wrap): it is never freed or resized here.
    bool ownsStorage() const { return storage_.ownsStorage(); }
    bool isContiguous() const { return is_contiguous(sizes_, strides_); }
    bool isSize(const Shape& s) const { return sizes_ == s; }
    template <class U>
    bool isSameSizeAs(const Tensor<U, D>& o) const {
        return sizes_ == o.sizes();
    }
    bool isSetTo(const Tensor& o) const {
        return storage_.valid() && storage_ == o.storage_ && offset_ == o.offset_ &&
               sizes_ == o.sizes_ && strides_ == o.strides_;
    }
    static constexpr int64_t elementSize() { return int64_t(sizeof(T)); } // bytes per element
    static std::string typeName() { return torch_type_name<T, D>("Tensor"); }
    std::string type() const { return typeName(); }

    // ---- element access (bounds-checked; negative indices count from the end) ---
    template <class... I>
    decltype(auto) operator()(I... idx) const; // indexing.hpp

    // ---- iteration in layout order (tensor/iterator.hpp; CPU tensors) -------------
    // Row-major over the sizes whatever the strides; T& (const T& for a const tensor).
    LayoutIterator<T> begin() { return iterator_at<T>(0); }
    LayoutIterator<T> end() { return iterator_at<T>(nElement()); }
    LayoutIterator<const T> begin() const { return iterator_at<const T>(0); }
    LayoutIterator<const T> end() const { return iterator_at<const T>(nElement()); }
    LayoutIterator<const T> cbegin() const { return begin(); }
    LayoutIterator<const T> cend() const { return end(); }
    // The elements in layout order (a CUDA tensor's are brought to the host).
    std::vector<T> toVector() const {
        if constexpr (!std::is_same_v<D, CPU>) {
            return cpu().toVector();
        } else {
            // Checked before std::vector asks operator new (AddressSanitizer's aborts).
            detail::require_memory("toVector", uint64_t(nElement()), sizeof(T), "the vector");
            return detail::guard_alloc("toVector", [&] {
                return isContiguous() ? std::vector<T>(data(), data() + nElement())
                                      : std::vector<T>(begin(), end());
            });
        }
    }

    // ---- rebinding and resizing --------------------------------------------------
    Tensor& set(const Tensor& o) {
        storage_ = o.storage_;
        offset_ = o.offset_;
        sizes_ = o.sizes_;
        strides_ = o.strides_;
        return *this;
    }
    Tensor& set(Storage<T, D> s, int64_t offset, const Shape& sizes = {},
                const Shape& strides = {});
    template <std::integral... I>
    Tensor& resize(I... sizes) {
        return resize(Shape{int64_t(sizes)...});
    }
    Tensor& resize(const Shape& sizes);
    template <class U>
    Tensor& resizeAs(const Tensor<U, D>& o) {
        return resize(o.sizes());
    }

    // ---- views (views.hpp): never copy, only build a new stride descriptor --------
    Tensor narrow(int64_t dim, int64_t start, int64_t length) const;
    Tensor select(int64_t dim, int64_t index) const;
    Tensor operator[](int64_t index) const;
    template <std::integral... I>
    Tensor sub(I... bounds) const {
        return sub_impl({int64_t(bounds)...});
    }
    Tensor transpose(int64_t d0, int64_t d1) const;
    Tensor t() const;
    template <std::integral... I>
    Tensor permute(I... dims) const {
        return permute(Shape{int64_t(dims)...});
    }
    Tensor permute(const Shape& dims) const;
    Tensor unfold(int64_t dim, int64_t size, int64_t step) const;
    template <std::integral... I>
    Tensor view(I... sizes) const {
        return view(Shape{int64_t(sizes)...});
    }
    Tensor view(const Shape& sizes) const;
    template <class U>
    Tensor viewAs(const Tensor<U, D>& o) const {
        return view(o.sizes());
    }
    template <std::integral... I>
    Tensor expand(I... sizes) const {
        return expand(Shape{int64_t(sizes)...});
    }
    Tensor expand(const Shape& sizes) const;
    template <class U>
    Tensor expandAs(const Tensor<U, D>& o) const {
        return expand(o.sizes());
    }
    // The view walking each of these dimensions backwards (NumPy's flip, a
    // negative stride: never a copy). Dimensions may be negative; repeats: IndexError.
    Tensor flip(const Shape& dims) const;
    Tensor squeeze() const;
    Tensor squeeze(int64_t dim) const;
    Tensor unsqueeze(int64_t dim) const;
    // The diagonal of dims d1, d2 (offset > 0 above, < 0 below) as a view, last
    // (NumPy's and PyTorch's order); an empty tensor when offset leaves none.
    Tensor diagonal(int64_t offset = 0, int64_t d1 = 0, int64_t d2 = 1) const;
    std::vector<Tensor> split(int64_t size, int64_t dim = 0) const;
    std::vector<Tensor> chunk(int64_t n, int64_t dim = 0) const;

    // ---- copies and conversions (copy.hpp) ---------------------------------------
    // copy() also crosses devices (CPU <-> CUDA, GPU <-> GPU: tensor/transfer.hpp).
    template <class U, class D2>
    Tensor& copy(const Tensor<U, D2>& src);
    Tensor& fill(T v);
    // Any other arithmetic value converts by the library's rule (core/dtype.hpp:
    // NaN and out-of-range values are defined), not by C++'s implicit conversion.
    template <Arithmetic S>
    requires(!std::is_same_v<S, T>) Tensor& fill(S v) { return fill(convert<T>(v)); }
    Tensor& zero() { return fill(T(0)); }
    Tensor clone() const;
    Tensor contiguous() const;
    // A new contiguous tensor of these values in another shape, layout order (Torch7's
    // reshape); the element counts must agree (ShapeError).
    template <std::integral... I>
    requires(sizeof...(I) > 0) Tensor reshape(I... sizes)
    const { return reshape(Shape{int64_t(sizes)...}); }
    Tensor reshape(const Shape& sizes) const;
    // Same sizes and the same values (any strides, any element types: values
    // compare after promotion, NaN equals nothing). expr/reductions.hpp.
    template <class U>
    bool equal(const Tensor<U, D>& o) const;
    template <class U>
    Tensor<U, D> to() const;
    Tensor<uint8_t, D> toByte() const { return to<uint8_t>(); }
    Tensor<int8_t, D> toChar() const { return to<int8_t>(); }
    Tensor<int16_t, D> toShort() const { return to<int16_t>(); }
    Tensor<int32_t, D> toInt() const { return to<int32_t>(); }
    Tensor<int64_t, D> toLong() const { return to<int64_t>(); }
    Tensor<float, D> toFloat() const { return to<float>(); }
    Tensor<double, D> toDouble() const { return to<double>(); }
    template <class U>
    Tensor<U, D> typeAs(const Tensor<U, D>&) const {
        return to<U>();
    }

    // ---- devices (tensor/transfer.hpp; CUDA needs the tensor7_cuda library) --------
    // This tensor on a GPU (itself when already there) / on the CPU (itself on the CPU).
    Tensor<T, CUDA> cuda(int device = 0) const;
    Tensor<T, CPU> cpu() const;

    // ---- in place, fused (expr/inplace.hpp) ----------------------------------------
    template <class B>
    Tensor& operator+=(const B& b);
    template <class B>
    Tensor& operator-=(const B& b);
    template <class B>
    Tensor& operator*=(const B& b);
    template <class B>
    Tensor& operator/=(const B& b);
    template <class B>
    Tensor& add(const B& b); // value or tensor
    template <Expression B>
    Tensor& add(double v, const B& b); // self += v * b
    template <Arithmetic S>
    Tensor& mul(S v);
    template <Arithmetic S>
    Tensor& div(S v);
    template <Expression B>
    Tensor& cmul(const B& b);
    template <Expression B>
    Tensor& cdiv(const B& b);
    template <Expression B>
    Tensor& csub(const B& b);
    template <Arithmetic S>
    Tensor& csub(S v); // self -= v
    template <Expression B, Expression C>
    Tensor& addcmul(double v, const B& b, const C& c); // self += v * b * c
    template <Expression B, Expression C>
    Tensor& addcdiv(double v, const B& b, const C& c); // self += v * b / c
    // Torch7's component methods (cmul ... addcdiv, cbit*) also accept an operand of
    // self's element count in another shape: paired in layout order, as Torch7.
    // Bitwise, integer tensors only (a compile error otherwise):
    template <std::integral S>
    requires std::integral<T> Tensor& lshift(S v); // self <<= v
    template <std::integral S>
    requires std::integral<T> Tensor& rshift(S v); // self >>= v
    template <Expression B>
    requires std::integral<T> Tensor& cbitand(const B& b);
    template <Expression B>
    requires std::integral<T> Tensor& cbitor(const B& b);
    template <Expression B>
    requires std::integral<T> Tensor& cbitxor(const B& b);

    // ---- apply / map / map2 (apply.hpp) -------------------------------------------
    template <class F>
    Tensor& apply(F&& f);
    template <class U, class F>
    Tensor& map(const Tensor<U, D>& t, F&& f);
    template <class U, class V, class F>
    Tensor& map2(const Tensor<U, D>& t1, const Tensor<V, D>& t2, F&& f);

    // ---- random fills, in place (math/random.hpp; issue 6) ---------------------------
    // Draw from the device's generator (t7::manualSeed); elements are filled in
    // row-major order of this view, the same values for any thread count.
    Tensor& uniform(double a = 0, double b = 1);      // [a, b)
    Tensor& normal(double mean = 0, double stdv = 1); // Gaussian
    Tensor& bernoulli(double p = 0.5);                // 1 with probability p, else 0
    template <class P>
    Tensor& bernoulli(const Tensor<P, D>& p); // per-element probabilities (broadcast)
    template <ExpressionOrSelection E>
    requires(!is_tensor_v<E>) Tensor& bernoulli(const E& p); // of an expression, evaluated once
    // issue 14: integers, more laws, and every law from a user's Generator first.
    Tensor& random();                     // [0, max]: 255 Byte, 2^24 Float, 2^53 Double
    Tensor& random(int64_t b);            // [0, b)
    Tensor& random(int64_t a, int64_t b); // [a, b)
    Tensor& logNormal(double mean = 1, double stdv = 2); // exp(normal(mean, stdv))
    Tensor& exponential(double lambda = 1);
    Tensor& cauchy(double median = 0, double sigma = 1);
    Tensor& geometric(double p = 0.5); // P(X = i) = (1 - p) p^(i-1), i >= 1
    Tensor& uniform(Generator& gen, double a = 0, double b = 1);
    Tensor& normal(Generator& gen, double mean = 0, double stdv = 1);
    Tensor& bernoulli(Generator& gen, double p = 0.5);
    Tensor& random(Generator& gen);
    Tensor& random(Generator& gen, int64_t b);
    Tensor& random(Generator& gen, int64_t a, int64_t b);
    Tensor& logNormal(Generator& gen, double mean = 1, double stdv = 2);
    Tensor& exponential(Generator& gen, double lambda = 1);
    Tensor& cauchy(Generator& gen, double median = 0, double sigma = 1);
    Tensor& geometric(Generator& gen, double p = 0.5);

    // ---- indexed, masked, search, sorting (ops/*.hpp; issue 4) -----------------------
    // 0-based indices. Index tensors are LongTensors (a template parameter so that
    // another type is a TypeError naming it); a mask is a ByteTensor or any uint8
    // expression (x < 0), with x's element count. In-place forms return *this; the
    // forms taking a source first write into *this (Torch7's result argument).
    template <class I>
    Tensor index(int64_t dim, const Tensor<I, D>& idx) const; // ops/index.hpp
    template <class I>
    Tensor& index(const Tensor& src, int64_t dim, const Tensor<I, D>& idx);
    template <class I>
    Tensor& indexCopy(int64_t dim, const Tensor<I, D>& idx, const Tensor& src);
    template <class I>
    Tensor& indexAdd(int64_t dim, const Tensor<I, D>& idx, const Tensor& src);
    template <class I>
    Tensor& indexFill(int64_t dim, const Tensor<I, D>& idx, T v);
    template <class I>
    Tensor gather(int64_t dim, const Tensor<I, D>& idx) const; // ops/gather_scatter.hpp
    template <class I>
    Tensor& gather(const Tensor& src, int64_t dim, const Tensor<I, D>& idx);
    template <class I>
    Tensor& scatter(int64_t dim, const Tensor<I, D>& idx, const Tensor& src);
    template <class I>
    Tensor& scatter(int64_t dim, const Tensor<I, D>& idx, T v);
    template <Expression M>
    Tensor maskedSelect(const M& mask) const; // ops/masked.hpp
    template <Expression M>
    Tensor& maskedSelect(const Tensor& src, const M& mask);
    template <Expression M>
    Tensor& maskedCopy(const M& mask, const Tensor& src);
    template <Expression M>
    Tensor& maskedFill(const M& mask, T v);
    template <Expression M>
    auto operator[](M&& mask) const;    // x[mask]: a MaskedRef (read, = v, = t)
    Tensor<int64_t, D> nonzero() const; // n x dim() coordinates, layout order
    template <std::integral... I>
    requires(sizeof...(I) > 0) Tensor repeatTensor(I... reps)
    const { return repeatTensor(Shape{int64_t(reps)...}); }
    Tensor repeatTensor(const Shape& reps) const; // ops/repeat.hpp
    Tensor& repeatTensor(const Tensor& src, const Shape& reps);
    // ValuesIndices{values, indices} (ops/sort.hpp); dim -1 is the last dimension.
    auto sort(int64_t dim = -1, bool descending = false) const; // stable
    auto topk(int64_t k, int64_t dim = -1, bool largest = true) const;
    auto kthvalue(int64_t k, int64_t dim = -1) const; // k-th smallest, k >= 1
    auto median(int64_t dim = -1) const;              // lower median
    auto mode(int64_t dim = -1) const;

    // Wraps a negative dimension and checks the range; `op` names the caller.
    int64_t wrap_dim(int64_t d, const char* op, int64_t extra = 0) const {
        int64_t n = dim() + extra;
        int64_t w = d < 0 ? d + n : d;
        if (w < 0 || w >= n)
            detail::fail<IndexError>(op, ": dimension ", d, " out of range for ", dim(),
                                     "-D tensor");
        return w;
    }

private:
    template <class, class>
    friend class Tensor;

    void allocate(const Shape& sizes, const Shape& strides);
    template <class E>
    LayoutIterator<E> iterator_at(int64_t pos) const {
        static_assert(std::is_same_v<D, CPU>,
                      "Tensor::begin/end: a CUDA tensor's elements live in device memory; "
                      "iterate over x.cpu() (or use x.toVector())");
        return LayoutIterator<E>(data(), sizes_, strides_, pos);
    }
    Tensor sub_impl(const Shape& bounds) const;
    Tensor with(int64_t offset, Shape sizes, Shape strides) const {
        Tensor r;
        r.storage_ = storage_;
        r.offset_ = offset;
        r.sizes_ = std::move(sizes);
        r.strides_ = std::move(strides);
        return r;
    }

    Storage<T, D> storage_;
    int64_t offset_ = 0;
    Shape sizes_;
    Shape strides_;
};

using ByteTensor = Tensor<uint8_t>;
using CharTensor = Tensor<int8_t>;
using ShortTensor = Tensor<int16_t>;
using IntTensor = Tensor<int32_t>;
using LongTensor = Tensor<int64_t>;
using FloatTensor = Tensor<float>;
using DoubleTensor = Tensor<double>;
using ComplexFloatTensor = Tensor<std::complex<float>>;
using ComplexDoubleTensor = Tensor<std::complex<double>>;

namespace detail {

// Sizes are counts: a negative one is an error. A size 0 is a dimension with no
// elements (NumPy, PyTorch): Tensor(0, 5) is 0x5, Tensor() the dimensionless
// empty tensor of Torch7.
inline void check_sizes(const Shape& sizes, const char* op) {
    for (int64_t s : sizes)
        if (s < 0) fail<ShapeError>(op, ": negative size ", s, " in ", sizes);
}

} // namespace detail

template <class T, class D>
void Tensor<T, D>::allocate(const Shape& sizes_in, const Shape& strides_in) {
    if (strides_in.size() != sizes_in.size())
        detail::fail<ShapeError>("Tensor: ", sizes_in.size(), " sizes but ", strides_in.size(),
                                 " strides");
    detail::check_sizes(sizes_in, "Tensor");
    const size_t n = sizes_in.size();
    Shape sizes = sizes_in, strides = strides_in;
    detail::checked_numel(sizes, "Tensor");
    // Torch7: a negative stride becomes the contiguous stride given the dims inside it.
    int64_t running = 1;
    for (size_t d = n; d-- > 0;) {
        if (strides[d] < 0) strides[d] = running;
        running = detail::mul_size(strides[d], std::max<int64_t>(sizes[d], 1), "Tensor", "stride ",
                                   strides, " of size ", sizes);
    }
    const int64_t extent = detail::checked_extent(sizes, strides, "Tensor");
    if (n > 0) storage_ = Storage<T, D>(extent); // may throw: members not yet changed
    sizes_ = std::move(sizes);
    strides_ = std::move(strides);
    offset_ = 0;
}

template <class T, class D>
Tensor<T, D>& Tensor<T, D>::set(Storage<T, D> s, int64_t offset, const Shape& sizes_in,
                                const Shape& strides_in) {
    if (offset < 0) detail::fail<IndexError>("set: negative storage offset ", offset);
    Shape sizes = sizes_in, strides = strides_in;
    if (sizes.empty()) { // 1-D over the rest of the storage
        if (offset > s.size())
            detail::fail<IndexError>("set: storage offset ", offset,
                                     " is past the end of a storage of size ", s.size());
        if (s.size() > offset) sizes = Shape{s.size() - offset};
    }
    if (!strides.empty() && strides.size() != sizes.size())
        detail::fail<ShapeError>("set: ", sizes.size(), " sizes but ", strides.size(), " strides");
    detail::check_sizes(sizes, "set");
    const size_t n = sizes.size();
    if (strides.empty()) strides = contiguous_strides(sizes);
    for (size_t d = 0; d < n; ++d)
        if (strides[d] < 0) detail::fail<ShapeError>("set: negative stride ", strides[d]);
    detail::checked_numel(sizes, "set");
    const int64_t extent = detail::checked_extent(sizes, strides, "set");
    if (n > 0 && extent > s.size() - std::min(offset, s.size()))
        detail::fail<IndexError>("set: size ", sizes, " and stride ", strides, " need ", extent,
                                 " elements from offset ", offset, " but the storage has ",
                                 s.size()); // (offset + extent may overflow)
    storage_ = std::move(s);
    offset_ = offset;
    sizes_ = std::move(sizes);
    strides_ = std::move(strides);
    return *this;
}

template <class T, class D>
Tensor<T, D>& Tensor<T, D>::resize(const Shape& sizes_in) {
    detail::check_sizes(sizes_in, "resize");
    const Shape& sizes = sizes_in;
    if (sizes == sizes_) return *this;
    detail::checked_numel(sizes, "resize");
    Shape strides = contiguous_strides(sizes);
    const int64_t need = detail::add_size(offset_, detail::checked_extent(sizes, strides, "resize"),
                                          "resize", "storage offset plus size ", sizes);
    // Refused (a wrapped storage cannot grow), then grown, before anything
    // changes here: when either throws, this tensor is unchanged.
    storage_.check_resize(std::max(storage_.size(), need), "resize");
    if (!storage_.valid()) {
        storage_ = Storage<T, D>(need);
    } else if (need > storage_.size()) {
        storage_.resize(need); // grows, never shrinks
    }
    sizes_ = sizes;
    strides_ = std::move(strides);
    return *this;
}

} // namespace t7
