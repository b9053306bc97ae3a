# NetschemaInstall.cmake — what `cmake --install` (and `make install PREFIX=...`) puts where:
#   bin/netschemac
#   lib/libnetschema.a, lib/libnetschema.so.<version> (+ soname and dev links)
#   include/netschema/*.h
#   lib/cmake/netschema/  netschemaConfig.cmake, netschemaConfigVersion.cmake, the exported
#                         targets (netschema::runtime, netschema::runtime_shared,
#                         netschema::netschemac) and Netschema.cmake (netschema_generate)
#   lib/pkgconfig/netschema.pc (with a `netschemac` variable for Makefile builds)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(NETSCHEMA_CMAKE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/netschema")

set_target_properties(netschemac PROPERTIES EXPORT_NAME netschemac)
install(TARGETS netschemac netschema_runtime netschema_runtime_shared
        EXPORT netschemaTargets
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/include/netschema
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.h")
install(EXPORT netschemaTargets NAMESPACE netschema:: DESTINATION ${NETSCHEMA_CMAKE_DIR})

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/netschemaConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/netschemaConfig.cmake
                              INSTALL_DESTINATION ${NETSCHEMA_CMAKE_DIR})
# 0.x releases may change the wire format between minor versions: ask for the same minor.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/netschemaConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/netschemaConfig.cmake ${PROJECT_BINARY_DIR}/netschemaConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/Netschema.cmake
        DESTINATION ${NETSCHEMA_CMAKE_DIR})

# The .pc file finds its prefix from where it lies (${pcfiledir}), so `--prefix` at install time
# and moved installs work.
file(RELATIVE_PATH NETSCHEMA_PC_TO_PREFIX "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
string(REGEX REPLACE "/$" "" NETSCHEMA_PC_TO_PREFIX "${NETSCHEMA_PC_TO_PREFIX}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/netschema.pc.in ${PROJECT_BINARY_DIR}/netschema.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/netschema.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
