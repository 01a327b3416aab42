// PMPI wrappers of one-sided communication (windows, transfers, synchronisation) and MPI-IO:
// Extrae's one-sided size and target rank, and the bytes of each MPI-IO read or write, at the
// entry of the call.

#include <mpi.h>

#include "tracing/src/mpi/mpi_wrapper_util.h"

using namespace parallax::tracing;
using namespace parallax::tracing::mpi;

extern "C" {

// ---- one-sided: Extrae's size and target rank with the entry of a transfer ----

int MPI_Win_create(void* base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                   MPI_Win* win) {
  PXT_CALL("MPI_Win_create");
  CallScope s(kCall);
  return PMPI_Win_create(base, size, disp_unit, info, comm, win);
}

int MPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void* baseptr,
                     MPI_Win* win) {
  PXT_CALL("MPI_Win_allocate");
  CallScope s(kCall);
  return PMPI_Win_allocate(size, disp_unit, info, comm, baseptr, win);
}

int MPI_Win_free(MPI_Win* win) {
  PXT_CALL("MPI_Win_free");
  CallScope s(kCall);
  return PMPI_Win_free(win);
}

int MPI_Put(const void* origin, int origin_count, MPI_Datatype origin_type, int target,
            MPI_Aint target_disp, int target_count, MPI_Datatype target_type, MPI_Win win) {
  PXT_CALL("MPI_Put");
  CallScope s(kCall);
  RecordRma(s, origin_count, origin_type, target);
  return PMPI_Put(origin, origin_count, origin_type, target, target_disp, target_count, target_type,
                  win);
}

int MPI_Get(void* origin, int origin_count, MPI_Datatype origin_type, int target,
            MPI_Aint target_disp, int target_count, MPI_Datatype target_type, MPI_Win win) {
  PXT_CALL("MPI_Get");
  CallScope s(kCall);
  RecordRma(s, origin_count, origin_type, target);
  return PMPI_Get(origin, origin_count, origin_type, target, target_disp, target_count, target_type,
                  win);
}

int MPI_Rput(const void* origin, int origin_count, MPI_Datatype origin_type, int target,
             MPI_Aint target_disp, int target_count, MPI_Datatype target_type, MPI_Win win,
             MPI_Request* request) {
  PXT_CALL("MPI_Rput");
  CallScope s(kCall);
  RecordRma(s, origin_count, origin_type, target);
  return PMPI_Rput(origin, origin_count, origin_type, target, target_disp, target_count,
                   target_type, win, request);
}

int MPI_Rget(void* origin, int origin_count, MPI_Datatype origin_type, int target,
             MPI_Aint target_disp, int target_count, MPI_Datatype target_type, MPI_Win win,
             MPI_Request* request) {
  PXT_CALL("MPI_Rget");
  CallScope s(kCall);
  RecordRma(s, origin_count, origin_type, target);
  return PMPI_Rget(origin, origin_count, origin_type, target, target_disp, target_count,
                   target_type, win, request);
}

int MPI_Accumulate(const void* origin, int origin_count, MPI_Datatype origin_type, int target,
                   MPI_Aint target_disp, int target_count, MPI_Datatype target_type, MPI_Op op,
                   MPI_Win win) {
  PXT_CALL("MPI_Accumulate");
  CallScope s(kCall);
  RecordRma(s, origin_count, origin_type, target);
  return PMPI_Accumulate(origin, origin_count, origin_type, target, target_disp, target_count,
                         target_type, op, win);
}

int MPI_Get_accumulate(const void* origin, int origin_count, MPI_Datatype origin_type, void* result,
                       int result_count, MPI_Datatype result_type, int target, MPI_Aint target_disp,
                       int target_count, MPI_Datatype target_type, MPI_Op op, MPI_Win win) {
  PXT_CALL("MPI_Get_accumulate");
  CallScope s(kCall);
  RecordRma(s, origin_count, origin_type, target);
  return PMPI_Get_accumulate(origin, origin_count, origin_type, result, result_count, result_type,
                             target, target_disp, target_count, target_type, op, win);
}

int MPI_Fetch_and_op(const void* origin, void* result, MPI_Datatype type, int target,
                     MPI_Aint target_disp, MPI_Op op, MPI_Win win) {
  PXT_CALL("MPI_Fetch_and_op");
  CallScope s(kCall);
  RecordRma(s, 1, type, target);
  return PMPI_Fetch_and_op(origin, result, type, target, target_disp, op, win);
}

int MPI_Compare_and_swap(const void* origin, const void* compare, void* result, MPI_Datatype type,
                         int target, MPI_Aint target_disp, MPI_Win win) {
  PXT_CALL("MPI_Compare_and_swap");
  CallScope s(kCall);
  RecordRma(s, 1, type, target);
  return PMPI_Compare_and_swap(origin, compare, result, type, target, target_disp, win);
}

int MPI_Win_fence(int assert_flags, MPI_Win win) {
  PXT_CALL("MPI_Win_fence");
  CallScope s(kCall);
  return PMPI_Win_fence(assert_flags, win);
}

int MPI_Win_start(MPI_Group group, int assert_flags, MPI_Win win) {
  PXT_CALL("MPI_Win_start");
  CallScope s(kCall);
  return PMPI_Win_start(group, assert_flags, win);
}

int MPI_Win_complete(MPI_Win win) {
  PXT_CALL("MPI_Win_complete");
  CallScope s(kCall);
  return PMPI_Win_complete(win);
}

int MPI_Win_post(MPI_Group group, int assert_flags, MPI_Win win) {
  PXT_CALL("MPI_Win_post");
  CallScope s(kCall);
  return PMPI_Win_post(group, assert_flags, win);
}

int MPI_Win_wait(MPI_Win win) {
  PXT_CALL("MPI_Win_wait");
  CallScope s(kCall);
  return PMPI_Win_wait(win);
}

int MPI_Win_test(MPI_Win win, int* flag) {
  PXT_CALL("MPI_Win_test");
  CallScope s(kCall);
  return PMPI_Win_test(win, flag);
}

int MPI_Win_lock(int lock_type, int rank, int assert_flags, MPI_Win win) {
  PXT_CALL("MPI_Win_lock");
  CallScope s(kCall);
  return PMPI_Win_lock(lock_type, rank, assert_flags, win);
}

int MPI_Win_unlock(int rank, MPI_Win win) {
  PXT_CALL("MPI_Win_unlock");
  CallScope s(kCall);
  return PMPI_Win_unlock(rank, win);
}

int MPI_Win_lock_all(int assert_flags, MPI_Win win) {
  PXT_CALL("MPI_Win_lock_all");
  CallScope s(kCall);
  return PMPI_Win_lock_all(assert_flags, win);
}

int MPI_Win_unlock_all(MPI_Win win) {
  PXT_CALL("MPI_Win_unlock_all");
  CallScope s(kCall);
  return PMPI_Win_unlock_all(win);
}

int MPI_Win_flush(int rank, MPI_Win win) {
  PXT_CALL("MPI_Win_flush");
  CallScope s(kCall);
  return PMPI_Win_flush(rank, win);
}

// ---- MPI-IO: the bytes of each read or write with the entry of the call ----

int MPI_File_open(MPI_Comm comm, const char* filename, int amode, MPI_Info info, MPI_File* fh) {
  PXT_CALL("MPI_File_open");
  CallScope s(kCall);
  return PMPI_File_open(comm, filename, amode, info, fh);
}

int MPI_File_close(MPI_File* fh) {
  PXT_CALL("MPI_File_close");
  CallScope s(kCall);
  return PMPI_File_close(fh);
}

int MPI_File_read(MPI_File fh, void* buf, int count, MPI_Datatype type, MPI_Status* status) {
  PXT_CALL("MPI_File_read");
  CallScope s(kCall);
  RecordIo(s, count, type);
  return PMPI_File_read(fh, buf, count, type, status);
}

int MPI_File_read_all(MPI_File fh, void* buf, int count, MPI_Datatype type, MPI_Status* status) {
  PXT_CALL("MPI_File_read_all");
  CallScope s(kCall);
  RecordIo(s, count, type);
  return PMPI_File_read_all(fh, buf, count, type, status);
}

int MPI_File_write(MPI_File fh, const void* buf, int count, MPI_Datatype type, MPI_Status* status) {
  PXT_CALL("MPI_File_write");
  CallScope s(kCall);
  RecordIo(s, count, type);
  return PMPI_File_write(fh, buf, count, type, status);
}

int MPI_File_write_all(MPI_File fh, const void* buf, int count, MPI_Datatype type,
                       MPI_Status* status) {
  PXT_CALL("MPI_File_write_all");
  CallScope s(kCall);
  RecordIo(s, count, type);
  return PMPI_File_write_all(fh, buf, count, type, status);
}

int MPI_File_read_at(MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype type,
                     MPI_Status* status) {
  PXT_CALL("MPI_File_read_at");
  CallScope s(kCall);
  RecordIo(s, count, type);
  return PMPI_File_read_at(fh, offset, buf, count, type, status);
}

int MPI_File_read_at_all(MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype type,
                         MPI_Status* status) {
  PXT_CALL("MPI_File_read_at_all");
  CallScope s(kCall);
  RecordIo(s, count, type);
  return PMPI_File_read_at_all(fh, offset, buf, count, type, status);
}

int MPI_File_write_at(MPI_File fh, MPI_Offset offset, const void* buf, int count, MPI_Datatype type,
                      MPI_Status* status) {
  PXT_CALL("MPI_File_write_at");
  CallScope s(kCall);
  RecordIo(s, count, type);
  return PMPI_File_write_at(fh, offset, buf, count, type, status);
}

int MPI_File_write_at_all(MPI_File fh, MPI_Offset offset, const void* buf, int count,
                          MPI_Datatype type, MPI_Status* status) {
  PXT_CALL("MPI_File_write_at_all");
  CallScope s(kCall);
  RecordIo(s, count, type);
  return PMPI_File_write_at_all(fh, offset, buf, count, type, status);
}

int MPI_File_iread(MPI_File fh, void* buf, int count, MPI_Datatype type, MPI_Request* request) {
  PXT_CALL("MPI_File_iread");
  CallScope s(kCall);
  RecordIo(s, count, type);
  return PMPI_File_iread(fh, buf, count, type, request);
}

int MPI_File_iwrite(MPI_File fh, const void* buf, int count, MPI_Datatype type,
                    MPI_Request* request) {
  PXT_CALL("MPI_File_iwrite");
  CallScope s(kCall);
  RecordIo(s, count, type);
  return PMPI_File_iwrite(fh, buf, count, type, request);
}

int MPI_File_iread_at(MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype type,
                      MPI_Request* request) {
  PXT_CALL("MPI_File_iread_at");
  CallScope s(kCall);
  RecordIo(s, count, type);
  return PMPI_File_iread_at(fh, offset, buf, count, type, request);
}

int MPI_File_iwrite_at(MPI_File fh, MPI_Offset offset, const void* buf, int count,
                       MPI_Datatype type, MPI_Request* request) {
  PXT_CALL("MPI_File_iwrite_at");
  CallScope s(kCall);
  RecordIo(s, count, type);
  return PMPI_File_iwrite_at(fh, offset, buf, count, type, request);
}

}  // extern "C"
