# `make deb`: CPack packs what cmake/install.cmake installs (program, libraries, headers, CMake
# package, permuzzle.pc, data, man page, bash completion) under /usr into one .deb for Debian 12.
# Runtime dependencies come from dpkg-shlibdeps over the program (fmt, GMP, Open MPI, the C++
# runtime, ...); the development packages the libraries' headers include are recommended.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME permuzzle)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "permutation puzzles and permutation groups, solved exactly")
set(CPACK_PACKAGE_DESCRIPTION
    "permuzzle models permutation puzzles, computes their permutation groups (Schreier-Sims, \
backtrack search) and solves them optimally. It installs the permuzzle program (man page, bash \
completion, the data files it reads) and the C++20 static libraries permuzzle::core and \
permuzzle::api with their headers, a CMake package and a pkg-config file.")
set(CPACK_PACKAGE_CONTACT "permuzzle developers <permuzzle@localhost>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # permuzzle_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libfmt-dev, libgmp-dev, nlohmann-json3-dev, pkg-config")
set(CPACK_PACKAGE_DIRECTORY ${CMAKE_BINARY_DIR}/deb)
include(CPack)
