#pragma once
// Shared by the Fortran binding files (fortran_wrappers*.cc): Open MPI's Fortran sentinels and
// the conversions of Fortran arguments (handles, statuses, request and datatype arrays, strings,
// the optional ierror of mpi_f08) to those of the C wrappers. Internal to libparallax-mpi.so.

#include <mpi.h>

#include <cstddef>
#include <cstring>
#include <memory>

// The other names of a Fortran routine wrapped as `name_` (gfortran's lower case with one
// underscore): `name` (xlf, flang's -fno-underscoring), `name__` (g77 and gfortran's
// -fsecond-underscore) and `NAME` (Cray, Intel with /names:uppercase), the four names Open MPI's
// Fortran library exports for every routine. Aliases of the one wrapper, so a program compiled
// with any of these conventions gets the same records (and the same call-site look-up). Used at
// the end of each fortran_wrappers*.cc file, where `name_` is defined.
#define PXT_FORTRAN_ALIASES(name, NAME)                                          \
  extern "C" decltype(name##_) name __attribute__((alias(#name "_")));           \
  extern "C" decltype(name##_) name##__ __attribute__((alias(#name "_")));       \
  extern "C" decltype(name##_) NAME __attribute__((alias(#name "_")));

// Open MPI's Fortran sentinels (common blocks of libmpi): their addresses are MPI_BOTTOM,
// MPI_IN_PLACE, MPI_STATUS_IGNORE, MPI_STATUSES_IGNORE, MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY in
// Fortran.
extern "C" {
extern char mpi_fortran_bottom_[];
extern char mpi_fortran_in_place_[];
extern char mpi_fortran_status_ignore_[];
extern char mpi_fortran_statuses_ignore_[];
extern char mpi_fortran_unweighted_[];
extern char mpi_fortran_weights_empty_[];
}

namespace parallax::tracing::mpi::fortran {

using F = MPI_Fint;
// INTEGER(KIND=MPI_ADDRESS_KIND) and INTEGER(KIND=MPI_OFFSET_KIND): 8 bytes, passed by address.
using Aint = MPI_Aint;
using Offset = MPI_Offset;

// MPI_STATUS_SIZE of Fortran (6 in Open MPI, whose mpi.h lacks MPI_F_STATUS_SIZE): Open MPI's
// Fortran status is its C status seen as integers.
constexpr size_t kStatusSize = sizeof(MPI_Status) / sizeof(MPI_Fint);

inline void* Buf(void* b) {
  if (b == mpi_fortran_bottom_) return MPI_BOTTOM;
  if (b == mpi_fortran_in_place_) return MPI_IN_PLACE;
  return b;
}

// A Fortran weights argument of the distributed graph constructors.
inline const int* Weights(F* w) {
  if (reinterpret_cast<char*>(w) == mpi_fortran_unweighted_) return MPI_UNWEIGHTED;
  if (reinterpret_cast<char*>(w) == mpi_fortran_weights_empty_) return MPI_WEIGHTS_EMPTY;
  return w;
}

inline bool StatusIgnored(F* s) { return reinterpret_cast<char*>(s) == mpi_fortran_status_ignore_; }
inline bool StatusesIgnored(F* s) {
  return reinterpret_cast<char*>(s) == mpi_fortran_statuses_ignore_;
}

// One C status for a Fortran status argument, written back by Done().
class StatusArg {
 public:
  explicit StatusArg(F* f) : f_(StatusIgnored(f) ? nullptr : f) {}
  MPI_Status* c() { return f_ ? &c_ : MPI_STATUS_IGNORE; }
  void Done(int rc) {
    if (f_ && rc == MPI_SUCCESS) PMPI_Status_c2f(&c_, f_);
  }

 private:
  F* f_;
  MPI_Status c_;
};

// `n` elements of T: on the stack up to kInline (the usual small counts), on the heap beyond.
template <typename T, size_t kInline = 16>
class SmallArray {
 public:
  explicit SmallArray(size_t n)
      : heap_(n > kInline ? new T[n] : nullptr), p_(heap_ ? heap_.get() : inline_) {}
  SmallArray(const SmallArray&) = delete;
  SmallArray& operator=(const SmallArray&) = delete;
  T* get() { return p_; }
  T& operator[](size_t i) { return p_[i]; }

 private:
  T inline_[kInline];
  std::unique_ptr<T[]> heap_;
  T* p_;
};

inline size_t Count(F n) { return n > 0 ? static_cast<size_t>(n) : 0; }

// C copies of a Fortran request array (and of its statuses), written back by Done().
class RequestArray {
 public:
  RequestArray(F n, F* requests, F* statuses)
      : n_(Count(n)),
        f_(requests),
        fs_(StatusesIgnored(statuses) ? nullptr : statuses),
        r_(n_),
        s_(fs_ ? n_ : 0) {
    for (size_t i = 0; i < n_; ++i) r_[i] = PMPI_Request_f2c(f_[i]);
  }
  RequestArray(const RequestArray&) = delete;
  RequestArray& operator=(const RequestArray&) = delete;
  MPI_Request* c() { return r_.get(); }
  MPI_Status* statuses() { return fs_ ? s_.get() : MPI_STATUSES_IGNORE; }
  // Writes back the requests; `nstatus` statuses (all, or the completed ones of *some).
  void Done(int rc, size_t nstatus) {
    for (size_t i = 0; i < n_; ++i) f_[i] = PMPI_Request_c2f(r_[i]);
    if (fs_ && rc == MPI_SUCCESS)
      for (size_t i = 0; i < nstatus && i < n_; ++i) PMPI_Status_c2f(&s_[i], fs_ + i * kStatusSize);
  }

 private:
  size_t n_;
  F* f_;
  F* fs_;
  SmallArray<MPI_Request> r_;
  SmallArray<MPI_Status> s_;
};

// C handles of a Fortran datatype array of `n` entries (the w-collectives); null when `n` is 0 or
// the array is not read (an MPI_IN_PLACE send side, whose types MPI ignores).
class TypeArray {
 public:
  TypeArray(int n, const F* types) : c_(types ? Count(n) : 0), used_(types && n > 0) {
    for (size_t i = 0; used_ && i < static_cast<size_t>(n); ++i) c_[i] = PMPI_Type_f2c(types[i]);
  }
  const MPI_Datatype* c() { return used_ ? c_.get() : nullptr; }

 private:
  SmallArray<MPI_Datatype> c_;
  bool used_;
};

// A Fortran CHARACTER argument (not NUL-terminated, `len` bytes from the hidden length argument
// gfortran passes after all the others) as a C string without its trailing blanks.
class FortranString {
 public:
  FortranString(const char* s, size_t len) : c_(Trimmed(s, len) + 1) {
    len = Trimmed(s, len);
    std::memcpy(c_.get(), s, len);
    c_[len] = '\0';
  }
  const char* c() { return c_.get(); }

 private:
  static size_t Trimmed(const char* s, size_t len) {
    while (len > 0 && s[len - 1] == ' ') --len;
    return len;
  }
  SmallArray<char, 256> c_;
};

// The ierror argument of an mpif.h wrapper called for an mpi_f08 routine: a local code, copied
// to the caller's optional ierror (null when left out) at the end of the call.
class Ierror {
 public:
  explicit Ierror(F* out) : out_(out) {}
  ~Ierror() {
    if (out_) *out_ = code_;
  }
  Ierror(const Ierror&) = delete;
  Ierror& operator=(const Ierror&) = delete;
  operator F*() { return &code_; }

 private:
  F* out_;
  F code_ = MPI_SUCCESS;
};

inline MPI_Comm C(F* c) { return PMPI_Comm_f2c(*c); }
inline MPI_Datatype T(F* t) { return PMPI_Type_f2c(*t); }
inline MPI_Op O(F* o) { return PMPI_Op_f2c(*o); }
inline MPI_Win W(F* w) { return PMPI_Win_f2c(*w); }
inline MPI_File Fh(F* f) { return PMPI_File_f2c(*f); }
inline MPI_Info I(F* i) { return PMPI_Info_f2c(*i); }
inline MPI_Group G(F* g) { return PMPI_Group_f2c(*g); }

// Writes a new request / communicator back to its Fortran handle when the call succeeded.
inline void SetRequest(F rc, MPI_Request r, F* out) {
  if (rc == MPI_SUCCESS) *out = PMPI_Request_c2f(r);
}
inline void SetComm(F rc, MPI_Comm c, F* out) {
  if (rc == MPI_SUCCESS) *out = PMPI_Comm_c2f(c);
}

}  // namespace parallax::tracing::mpi::fortran
