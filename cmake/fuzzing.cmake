# SPDX-License-Identifier: GPL-3.0-or-later
# PITH_FUZZ: every target of this build is compiled with coverage feedback for
# libFuzzer plus AddressSanitizer and UndefinedBehaviorSanitizer, so a fuzz
# target finds memory errors and UB in the library, not only in itself. Only
# fuzz/ links the libFuzzer runtime (-fsanitize=fuzzer); see docs/fuzzing.md.
# clang 16 is the first that compiles libstdc++'s std::expected (its
# destructors are conditionally trivial, P0848); Debian 12 ships clang-16.
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang" OR CMAKE_CXX_COMPILER_VERSION VERSION_LESS 16)
  message(FATAL_ERROR "PITH_FUZZ needs clang 16 or later (libFuzzer, std::expected): "
                      "configure with CC=clang-16 CXX=clang++-16")
endif()

# Debian 12's clang 16 still announces __cpp_concepts 201907L, so libstdc++ 12
# hides <expected> (it checks for 202002L) although clang compiles it. Announce
# the value the header checks for, only where that check fails.
include(CheckCXXSourceCompiles)
set(CMAKE_REQUIRED_FLAGS "-std=c++2b")
check_cxx_source_compiles("#include <expected>
int main() { std::expected<int, int> e = 1; return *e - 1; }" PITH_HAS_STD_EXPECTED)
unset(CMAKE_REQUIRED_FLAGS)
if(NOT PITH_HAS_STD_EXPECTED)
  add_compile_options(-U__cpp_concepts -D__cpp_concepts=202002L -Wno-builtin-macro-redefined)
endif()

set(PITH_FUZZ_SANITIZERS "address,undefined")
add_compile_options(-fsanitize=fuzzer-no-link,${PITH_FUZZ_SANITIZERS}
                    -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
add_link_options(-fsanitize=${PITH_FUZZ_SANITIZERS})
