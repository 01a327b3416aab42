// Fortran bindings of libparallax-mpi.so (see fortran_wrappers.cc): one-sided communication and
// MPI-IO, for `mpif.h` / `use mpi` (mpi_<name>_) and `use mpi_f08` (mpi_<name>_f08_, at the end,
// over the former).

#include <mpi.h>

#include <cstddef>

#include "tracing/src/mpi/fortran_util.h"

using namespace parallax::tracing::mpi::fortran;

extern "C" {

// ---- windows (MPI_Win through PMPI_Win_f2c / c2f; sizes and displacements are
// INTEGER(MPI_ADDRESS_KIND)) ----

void mpi_win_create_(void* base, Aint* size, F* disp_unit, F* info, F* comm, F* win, F* ierr) {
  MPI_Win w;
  *ierr = MPI_Win_create(Buf(base), *size, *disp_unit, I(info), C(comm), &w);
  if (*ierr == MPI_SUCCESS) *win = PMPI_Win_c2f(w);
}

// baseptr: an INTEGER(MPI_ADDRESS_KIND) (mpif.h) or TYPE(C_PTR) (mpi_f08) that receives the
// address of the memory, as the C void* argument does.
void mpi_win_allocate_(Aint* size, F* disp_unit, F* info, F* comm, void* baseptr, F* win, F* ierr) {
  MPI_Win w;
  *ierr = MPI_Win_allocate(*size, *disp_unit, I(info), C(comm), baseptr, &w);
  if (*ierr == MPI_SUCCESS) *win = PMPI_Win_c2f(w);
}

// `use mpi`'s MPI_Win_allocate with a TYPE(C_PTR) baseptr: the same arguments.
void mpi_win_allocate_cptr_(Aint* size, F* disp_unit, F* info, F* comm, void* baseptr, F* win,
                            F* ierr) {
  mpi_win_allocate_(size, disp_unit, info, comm, baseptr, win, ierr);
}

void mpi_win_free_(F* win, F* ierr) {
  MPI_Win w = W(win);
  *ierr = MPI_Win_free(&w);
  if (*ierr == MPI_SUCCESS) *win = PMPI_Win_c2f(w);
}

// ---- one-sided transfers and atomics ----

void mpi_put_(void* origin, F* ocount, F* otype, F* target, Aint* disp, F* tcount, F* ttype, F* win,
              F* ierr) {
  *ierr = MPI_Put(Buf(origin), *ocount, T(otype), *target, *disp, *tcount, T(ttype), W(win));
}

void mpi_get_(void* origin, F* ocount, F* otype, F* target, Aint* disp, F* tcount, F* ttype, F* win,
              F* ierr) {
  *ierr = MPI_Get(Buf(origin), *ocount, T(otype), *target, *disp, *tcount, T(ttype), W(win));
}

void mpi_rput_(void* origin, F* ocount, F* otype, F* target, Aint* disp, F* tcount, F* ttype,
               F* win, F* request, F* ierr) {
  MPI_Request r;
  *ierr = MPI_Rput(Buf(origin), *ocount, T(otype), *target, *disp, *tcount, T(ttype), W(win), &r);
  SetRequest(*ierr, r, request);
}

void mpi_rget_(void* origin, F* ocount, F* otype, F* target, Aint* disp, F* tcount, F* ttype,
               F* win, F* request, F* ierr) {
  MPI_Request r;
  *ierr = MPI_Rget(Buf(origin), *ocount, T(otype), *target, *disp, *tcount, T(ttype), W(win), &r);
  SetRequest(*ierr, r, request);
}

void mpi_accumulate_(void* origin, F* ocount, F* otype, F* target, Aint* disp, F* tcount, F* ttype,
                     F* op, F* win, F* ierr) {
  *ierr = MPI_Accumulate(Buf(origin), *ocount, T(otype), *target, *disp, *tcount, T(ttype), O(op),
                         W(win));
}

void mpi_get_accumulate_(void* origin, F* ocount, F* otype, void* result, F* rcount, F* rtype,
                         F* target, Aint* disp, F* tcount, F* ttype, F* op, F* win, F* ierr) {
  *ierr = MPI_Get_accumulate(Buf(origin), *ocount, T(otype), Buf(result), *rcount, T(rtype),
                             *target, *disp, *tcount, T(ttype), O(op), W(win));
}

void mpi_fetch_and_op_(void* origin, void* result, F* type, F* target, Aint* disp, F* op, F* win,
                       F* ierr) {
  *ierr = MPI_Fetch_and_op(Buf(origin), Buf(result), T(type), *target, *disp, O(op), W(win));
}

void mpi_compare_and_swap_(void* origin, void* compare, void* result, F* type, F* target,
                           Aint* disp, F* win, F* ierr) {
  *ierr =
      MPI_Compare_and_swap(Buf(origin), Buf(compare), Buf(result), T(type), *target, *disp, W(win));
}

// ---- one-sided synchronisation (LOGICAL flag of Win_test: 1 / 0 as gfortran's .true. / .false.)

void mpi_win_fence_(F* assert_flags, F* win, F* ierr) {
  *ierr = MPI_Win_fence(*assert_flags, W(win));
}

void mpi_win_start_(F* group, F* assert_flags, F* win, F* ierr) {
  *ierr = MPI_Win_start(G(group), *assert_flags, W(win));
}

void mpi_win_complete_(F* win, F* ierr) { *ierr = MPI_Win_complete(W(win)); }

void mpi_win_post_(F* group, F* assert_flags, F* win, F* ierr) {
  *ierr = MPI_Win_post(G(group), *assert_flags, W(win));
}

void mpi_win_wait_(F* win, F* ierr) { *ierr = MPI_Win_wait(W(win)); }

void mpi_win_test_(F* win, F* flag, F* ierr) {
  int f = 0;
  *ierr = MPI_Win_test(W(win), &f);
  *flag = f;
}

void mpi_win_lock_(F* lock_type, F* rank, F* assert_flags, F* win, F* ierr) {
  *ierr = MPI_Win_lock(*lock_type, *rank, *assert_flags, W(win));
}

void mpi_win_unlock_(F* rank, F* win, F* ierr) { *ierr = MPI_Win_unlock(*rank, W(win)); }

void mpi_win_lock_all_(F* assert_flags, F* win, F* ierr) {
  *ierr = MPI_Win_lock_all(*assert_flags, W(win));
}

void mpi_win_unlock_all_(F* win, F* ierr) { *ierr = MPI_Win_unlock_all(W(win)); }

void mpi_win_flush_(F* rank, F* win, F* ierr) { *ierr = MPI_Win_flush(*rank, W(win)); }

// ---- MPI-IO (MPI_File through PMPI_File_f2c / c2f; offsets are INTEGER(MPI_OFFSET_KIND)) ----

// filename: a CHARACTER(*) whose length gfortran passes as a hidden argument after ierror.
void mpi_file_open_(F* comm, const char* filename, F* amode, F* info, F* fh, F* ierr,
                    size_t filename_len) {
  FortranString name(filename, filename_len);
  MPI_File f;
  *ierr = MPI_File_open(C(comm), name.c(), *amode, I(info), &f);
  if (*ierr == MPI_SUCCESS) *fh = PMPI_File_c2f(f);
}

void mpi_file_close_(F* fh, F* ierr) {
  MPI_File f = Fh(fh);
  *ierr = MPI_File_close(&f);
  if (*ierr == MPI_SUCCESS) *fh = PMPI_File_c2f(f);
}

void mpi_file_read_(F* fh, void* buf, F* count, F* type, F* status, F* ierr) {
  StatusArg s(status);
  *ierr = MPI_File_read(Fh(fh), Buf(buf), *count, T(type), s.c());
  s.Done(*ierr);
}

void mpi_file_read_all_(F* fh, void* buf, F* count, F* type, F* status, F* ierr) {
  StatusArg s(status);
  *ierr = MPI_File_read_all(Fh(fh), Buf(buf), *count, T(type), s.c());
  s.Done(*ierr);
}

void mpi_file_write_(F* fh, void* buf, F* count, F* type, F* status, F* ierr) {
  StatusArg s(status);
  *ierr = MPI_File_write(Fh(fh), Buf(buf), *count, T(type), s.c());
  s.Done(*ierr);
}

void mpi_file_write_all_(F* fh, void* buf, F* count, F* type, F* status, F* ierr) {
  StatusArg s(status);
  *ierr = MPI_File_write_all(Fh(fh), Buf(buf), *count, T(type), s.c());
  s.Done(*ierr);
}

void mpi_file_read_at_(F* fh, Offset* offset, void* buf, F* count, F* type, F* status, F* ierr) {
  StatusArg s(status);
  *ierr = MPI_File_read_at(Fh(fh), *offset, Buf(buf), *count, T(type), s.c());
  s.Done(*ierr);
}

void mpi_file_read_at_all_(F* fh, Offset* offset, void* buf, F* count, F* type, F* status,
                           F* ierr) {
  StatusArg s(status);
  *ierr = MPI_File_read_at_all(Fh(fh), *offset, Buf(buf), *count, T(type), s.c());
  s.Done(*ierr);
}

void mpi_file_write_at_(F* fh, Offset* offset, void* buf, F* count, F* type, F* status, F* ierr) {
  StatusArg s(status);
  *ierr = MPI_File_write_at(Fh(fh), *offset, Buf(buf), *count, T(type), s.c());
  s.Done(*ierr);
}

void mpi_file_write_at_all_(F* fh, Offset* offset, void* buf, F* count, F* type, F* status,
                            F* ierr) {
  StatusArg s(status);
  *ierr = MPI_File_write_at_all(Fh(fh), *offset, Buf(buf), *count, T(type), s.c());
  s.Done(*ierr);
}

void mpi_file_iread_(F* fh, void* buf, F* count, F* type, F* request, F* ierr) {
  MPI_Request r;
  *ierr = MPI_File_iread(Fh(fh), Buf(buf), *count, T(type), &r);
  SetRequest(*ierr, r, request);
}

void mpi_file_iwrite_(F* fh, void* buf, F* count, F* type, F* request, F* ierr) {
  MPI_Request r;
  *ierr = MPI_File_iwrite(Fh(fh), Buf(buf), *count, T(type), &r);
  SetRequest(*ierr, r, request);
}

void mpi_file_iread_at_(F* fh, Offset* offset, void* buf, F* count, F* type, F* request, F* ierr) {
  MPI_Request r;
  *ierr = MPI_File_iread_at(Fh(fh), *offset, Buf(buf), *count, T(type), &r);
  SetRequest(*ierr, r, request);
}

void mpi_file_iwrite_at_(F* fh, Offset* offset, void* buf, F* count, F* type, F* request, F* ierr) {
  MPI_Request r;
  *ierr = MPI_File_iwrite_at(Fh(fh), *offset, Buf(buf), *count, T(type), &r);
  SetRequest(*ierr, r, request);
}

// ---- mpi_f08: the routines above with an OPTIONAL ierror (null when left out) ----

void mpi_win_create_f08_(void* base, Aint* size, F* disp_unit, F* info, F* comm, F* win, F* ierr) {
  mpi_win_create_(base, size, disp_unit, info, comm, win, Ierror(ierr));
}

void mpi_win_allocate_f08_(Aint* size, F* disp_unit, F* info, F* comm, void* baseptr, F* win,
                           F* ierr) {
  mpi_win_allocate_(size, disp_unit, info, comm, baseptr, win, Ierror(ierr));
}

void mpi_win_free_f08_(F* win, F* ierr) { mpi_win_free_(win, Ierror(ierr)); }

void mpi_put_f08_(void* origin, F* ocount, F* otype, F* target, Aint* disp, F* tcount, F* ttype,
                  F* win, F* ierr) {
  mpi_put_(origin, ocount, otype, target, disp, tcount, ttype, win, Ierror(ierr));
}

void mpi_get_f08_(void* origin, F* ocount, F* otype, F* target, Aint* disp, F* tcount, F* ttype,
                  F* win, F* ierr) {
  mpi_get_(origin, ocount, otype, target, disp, tcount, ttype, win, Ierror(ierr));
}

void mpi_rput_f08_(void* origin, F* ocount, F* otype, F* target, Aint* disp, F* tcount, F* ttype,
                   F* win, F* request, F* ierr) {
  mpi_rput_(origin, ocount, otype, target, disp, tcount, ttype, win, request, Ierror(ierr));
}

void mpi_rget_f08_(void* origin, F* ocount, F* otype, F* target, Aint* disp, F* tcount, F* ttype,
                   F* win, F* request, F* ierr) {
  mpi_rget_(origin, ocount, otype, target, disp, tcount, ttype, win, request, Ierror(ierr));
}

void mpi_accumulate_f08_(void* origin, F* ocount, F* otype, F* target, Aint* disp, F* tcount,
                         F* ttype, F* op, F* win, F* ierr) {
  mpi_accumulate_(origin, ocount, otype, target, disp, tcount, ttype, op, win, Ierror(ierr));
}

void mpi_get_accumulate_f08_(void* origin, F* ocount, F* otype, void* result, F* rcount, F* rtype,
                             F* target, Aint* disp, F* tcount, F* ttype, F* op, F* win, F* ierr) {
  mpi_get_accumulate_(origin, ocount, otype, result, rcount, rtype, target, disp, tcount, ttype, op,
                      win, Ierror(ierr));
}

void mpi_fetch_and_op_f08_(void* origin, void* result, F* type, F* target, Aint* disp, F* op,
                           F* win, F* ierr) {
  mpi_fetch_and_op_(origin, result, type, target, disp, op, win, Ierror(ierr));
}

void mpi_compare_and_swap_f08_(void* origin, void* compare, void* result, F* type, F* target,
                               Aint* disp, F* win, F* ierr) {
  mpi_compare_and_swap_(origin, compare, result, type, target, disp, win, Ierror(ierr));
}

void mpi_win_fence_f08_(F* assert_flags, F* win, F* ierr) {
  mpi_win_fence_(assert_flags, win, Ierror(ierr));
}

void mpi_win_start_f08_(F* group, F* assert_flags, F* win, F* ierr) {
  mpi_win_start_(group, assert_flags, win, Ierror(ierr));
}

void mpi_win_complete_f08_(F* win, F* ierr) { mpi_win_complete_(win, Ierror(ierr)); }

void mpi_win_post_f08_(F* group, F* assert_flags, F* win, F* ierr) {
  mpi_win_post_(group, assert_flags, win, Ierror(ierr));
}

void mpi_win_wait_f08_(F* win, F* ierr) { mpi_win_wait_(win, Ierror(ierr)); }

void mpi_win_test_f08_(F* win, F* flag, F* ierr) { mpi_win_test_(win, flag, Ierror(ierr)); }

void mpi_win_lock_f08_(F* lock_type, F* rank, F* assert_flags, F* win, F* ierr) {
  mpi_win_lock_(lock_type, rank, assert_flags, win, Ierror(ierr));
}

void mpi_win_unlock_f08_(F* rank, F* win, F* ierr) { mpi_win_unlock_(rank, win, Ierror(ierr)); }

void mpi_win_lock_all_f08_(F* assert_flags, F* win, F* ierr) {
  mpi_win_lock_all_(assert_flags, win, Ierror(ierr));
}

void mpi_win_unlock_all_f08_(F* win, F* ierr) { mpi_win_unlock_all_(win, Ierror(ierr)); }

void mpi_win_flush_f08_(F* rank, F* win, F* ierr) { mpi_win_flush_(rank, win, Ierror(ierr)); }

void mpi_file_open_f08_(F* comm, const char* filename, F* amode, F* info, F* fh, F* ierr,
                        size_t filename_len) {
  mpi_file_open_(comm, filename, amode, info, fh, Ierror(ierr), filename_len);
}

void mpi_file_close_f08_(F* fh, F* ierr) { mpi_file_close_(fh, Ierror(ierr)); }

void mpi_file_read_f08_(F* fh, void* buf, F* count, F* type, F* status, F* ierr) {
  mpi_file_read_(fh, buf, count, type, status, Ierror(ierr));
}

void mpi_file_read_all_f08_(F* fh, void* buf, F* count, F* type, F* status, F* ierr) {
  mpi_file_read_all_(fh, buf, count, type, status, Ierror(ierr));
}

void mpi_file_write_f08_(F* fh, void* buf, F* count, F* type, F* status, F* ierr) {
  mpi_file_write_(fh, buf, count, type, status, Ierror(ierr));
}

void mpi_file_write_all_f08_(F* fh, void* buf, F* count, F* type, F* status, F* ierr) {
  mpi_file_write_all_(fh, buf, count, type, status, Ierror(ierr));
}

void mpi_file_read_at_f08_(F* fh, Offset* offset, void* buf, F* count, F* type, F* status,
                           F* ierr) {
  mpi_file_read_at_(fh, offset, buf, count, type, status, Ierror(ierr));
}

void mpi_file_read_at_all_f08_(F* fh, Offset* offset, void* buf, F* count, F* type, F* status,
                               F* ierr) {
  mpi_file_read_at_all_(fh, offset, buf, count, type, status, Ierror(ierr));
}

void mpi_file_write_at_f08_(F* fh, Offset* offset, void* buf, F* count, F* type, F* status,
                            F* ierr) {
  mpi_file_write_at_(fh, offset, buf, count, type, status, Ierror(ierr));
}

void mpi_file_write_at_all_f08_(F* fh, Offset* offset, void* buf, F* count, F* type, F* status,
                                F* ierr) {
  mpi_file_write_at_all_(fh, offset, buf, count, type, status, Ierror(ierr));
}

void mpi_file_iread_f08_(F* fh, void* buf, F* count, F* type, F* request, F* ierr) {
  mpi_file_iread_(fh, buf, count, type, request, Ierror(ierr));
}

void mpi_file_iwrite_f08_(F* fh, void* buf, F* count, F* type, F* request, F* ierr) {
  mpi_file_iwrite_(fh, buf, count, type, request, Ierror(ierr));
}

void mpi_file_iread_at_f08_(F* fh, Offset* offset, void* buf, F* count, F* type, F* request,
                            F* ierr) {
  mpi_file_iread_at_(fh, offset, buf, count, type, request, Ierror(ierr));
}

void mpi_file_iwrite_at_f08_(F* fh, Offset* offset, void* buf, F* count, F* type, F* request,
                             F* ierr) {
  mpi_file_iwrite_at_(fh, offset, buf, count, type, request, Ierror(ierr));
}

}  // extern "C"

// The routines above under the other compilers' names (fortran_util.h).
PXT_FORTRAN_ALIASES(mpi_win_create, MPI_WIN_CREATE)
PXT_FORTRAN_ALIASES(mpi_win_allocate, MPI_WIN_ALLOCATE)
PXT_FORTRAN_ALIASES(mpi_win_allocate_cptr, MPI_WIN_ALLOCATE_CPTR)
PXT_FORTRAN_ALIASES(mpi_win_free, MPI_WIN_FREE)
PXT_FORTRAN_ALIASES(mpi_put, MPI_PUT)
PXT_FORTRAN_ALIASES(mpi_get, MPI_GET)
PXT_FORTRAN_ALIASES(mpi_rput, MPI_RPUT)
PXT_FORTRAN_ALIASES(mpi_rget, MPI_RGET)
PXT_FORTRAN_ALIASES(mpi_accumulate, MPI_ACCUMULATE)
PXT_FORTRAN_ALIASES(mpi_get_accumulate, MPI_GET_ACCUMULATE)
PXT_FORTRAN_ALIASES(mpi_fetch_and_op, MPI_FETCH_AND_OP)
PXT_FORTRAN_ALIASES(mpi_compare_and_swap, MPI_COMPARE_AND_SWAP)
PXT_FORTRAN_ALIASES(mpi_win_fence, MPI_WIN_FENCE)
PXT_FORTRAN_ALIASES(mpi_win_start, MPI_WIN_START)
PXT_FORTRAN_ALIASES(mpi_win_complete, MPI_WIN_COMPLETE)
PXT_FORTRAN_ALIASES(mpi_win_post, MPI_WIN_POST)
PXT_FORTRAN_ALIASES(mpi_win_wait, MPI_WIN_WAIT)
PXT_FORTRAN_ALIASES(mpi_win_test, MPI_WIN_TEST)
PXT_FORTRAN_ALIASES(mpi_win_lock, MPI_WIN_LOCK)
PXT_FORTRAN_ALIASES(mpi_win_unlock, MPI_WIN_UNLOCK)
PXT_FORTRAN_ALIASES(mpi_win_lock_all, MPI_WIN_LOCK_ALL)
PXT_FORTRAN_ALIASES(mpi_win_unlock_all, MPI_WIN_UNLOCK_ALL)
PXT_FORTRAN_ALIASES(mpi_win_flush, MPI_WIN_FLUSH)
PXT_FORTRAN_ALIASES(mpi_file_open, MPI_FILE_OPEN)
PXT_FORTRAN_ALIASES(mpi_file_close, MPI_FILE_CLOSE)
PXT_FORTRAN_ALIASES(mpi_file_read, MPI_FILE_READ)
PXT_FORTRAN_ALIASES(mpi_file_read_all, MPI_FILE_READ_ALL)
PXT_FORTRAN_ALIASES(mpi_file_write, MPI_FILE_WRITE)
PXT_FORTRAN_ALIASES(mpi_file_write_all, MPI_FILE_WRITE_ALL)
PXT_FORTRAN_ALIASES(mpi_file_read_at, MPI_FILE_READ_AT)
PXT_FORTRAN_ALIASES(mpi_file_read_at_all, MPI_FILE_READ_AT_ALL)
PXT_FORTRAN_ALIASES(mpi_file_write_at, MPI_FILE_WRITE_AT)
PXT_FORTRAN_ALIASES(mpi_file_write_at_all, MPI_FILE_WRITE_AT_ALL)
PXT_FORTRAN_ALIASES(mpi_file_iread, MPI_FILE_IREAD)
PXT_FORTRAN_ALIASES(mpi_file_iwrite, MPI_FILE_IWRITE)
PXT_FORTRAN_ALIASES(mpi_file_iread_at, MPI_FILE_IREAD_AT)
PXT_FORTRAN_ALIASES(mpi_file_iwrite_at, MPI_FILE_IWRITE_AT)
