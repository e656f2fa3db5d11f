# `cmake --install <build> --prefix P`: the program, the libraries permuzzle::core and
# permuzzle::api with their public headers, a CMake package (find_package(permuzzle CONFIG)), a
# pkg-config file (permuzzle.pc), the data files, the man page and the bash completion.
# `make deb` packs the same tree (cmake/package.cmake).
include(CMakePackageConfigHelpers)

set(PERMUZZLE_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/permuzzle)

install(TARGETS permuzzle_core permuzzle_api EXPORT permuzzleTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/permuzzle TYPE INCLUDE)
install(EXPORT permuzzleTargets NAMESPACE permuzzle:: DESTINATION ${PERMUZZLE_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/permuzzleConfig.cmake.in
                              ${CMAKE_BINARY_DIR}/generated/permuzzleConfig.cmake
                              INSTALL_DESTINATION ${PERMUZZLE_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/generated/permuzzleConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/generated/permuzzleConfig.cmake
              ${CMAKE_BINARY_DIR}/generated/permuzzleConfigVersion.cmake
        DESTINATION ${PERMUZZLE_CMAKE_DIR})

# pkg-config: the prefix is found from the .pc file's own place, so the tree can be moved.
file(RELATIVE_PATH PERMUZZLE_PC_TO_PREFIX ${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/pkgconfig
     ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" PERMUZZLE_PC_TO_PREFIX "${PERMUZZLE_PC_TO_PREFIX}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/permuzzle.pc.in ${CMAKE_BINARY_DIR}/generated/permuzzle.pc
               @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/generated/permuzzle.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# The data files the program reads by name (Korf's instances, definition and phase files,
# subgroup chains): <prefix>/share/permuzzle, which the installed program finds next to itself
# (data_dir in apps/cli/cli.hpp). The scripts that wrote some phase files stay in the source.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/data/ DESTINATION ${CMAKE_INSTALL_DATADIR}/permuzzle
        PATTERN "*.py" EXCLUDE PATTERN "__pycache__" EXCLUDE)

if(TARGET permuzzle)
  # permuzzle execs permuzzle-full (serve, mpirun) from its own directory.
  install(TARGETS permuzzle permuzzle-full RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(FILES ${CMAKE_BINARY_DIR}/generated/permuzzle.1
          DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
  install(FILES ${CMAKE_BINARY_DIR}/generated/permuzzle.bash
          DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME permuzzle)
  install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
endif()
