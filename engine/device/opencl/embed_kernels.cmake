# Writes the OpenCL kernel sources into a C++ header (run at build time by engine/CMakeLists.txt):
#   cmake -DOUTPUT=header.hpp "-DSOURCES=a.cl;b.cl" -P embed_kernels.cmake
# Each file becomes a raw string literal, in the order given (common.cl first).
set(text "// Generated from engine/device/opencl/kernels/*.cl by embed_kernels.cmake: do not edit.\n")
string(APPEND text "#pragma once\n\nnamespace tb::ocl {\n\nstruct KernelSource {\n    const char* name;\n    const char* text;\n};\n\n")
string(APPEND text "inline constexpr KernelSource kKernelSources[] = {\n")
foreach(source IN LISTS SOURCES)
  file(READ ${source} body)
  get_filename_component(name ${source} NAME)
  string(APPEND text "    {\"${name}\", R\"TBCL(${body})TBCL\"},\n")
endforeach()
string(APPEND text "};\n\n} // namespace tb::ocl\n")
file(WRITE ${OUTPUT}.tmp "${text}")
file(COPY_FILE ${OUTPUT}.tmp ${OUTPUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUTPUT}.tmp)
