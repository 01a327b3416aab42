# parallax-gen, the synthetic trace generator: standalone on purpose (standard library, fmt and
# CLI11 only), so it builds and produces benchmark inputs even while the core libraries do not
# compile. Included by the top-level CMakeLists.txt when the benchmarks or the tests are built
# (golden.mpi_cache makes its input with it).
add_executable(parallax-gen ${CMAKE_CURRENT_LIST_DIR}/trace_gen.cc)
target_compile_options(parallax-gen PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                            -Wno-sign-conversion)
target_link_libraries(parallax-gen PRIVATE fmt::fmt CLI11::CLI11)
