// The OpenCL objects the backend works with: one device's context and in-order queue, the program
// built from the embedded kernels (kernels/*.cl), device buffers counted against the device's memory
// (or TRAINBENCH_OPENCL_MEMORY_LIMIT), and OpenCL status codes turned into messages a user can act on.
// The program is built on a thread of its own while the backend allocates and uploads, from the
// compiled-kernel cache when it holds this program for this device (device/kernel_cache.hpp).
// Only built when the build has OpenCL (TRAINBENCH_HAVE_OPENCL).
#pragma once

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <cstdint>
#include <exception>
#include <map>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace tb::ocl {

std::string errorName(cl_int err); // "CL_OUT_OF_RESOURCES (-5)"
std::string deviceString(cl_device_id d, cl_device_info what);
std::string platformString(cl_platform_id p, cl_platform_info what);
template <typename T> T deviceValue(cl_device_id d, cl_device_info what)
{
    T v{};
    clGetDeviceInfo(d, what, sizeof v, &v, nullptr);
    return v;
}
// Why the backend cannot run on `d` (no compiler, OpenCL before 1.2, unavailable), or empty.
std::string unusableReason(cl_device_id d);

// Throws DeviceError for a failed call: out of device memory, a lost device or any other status.
void check(cl_int err, const char* what);

// A device buffer of floats (or bytes) that releases itself.
class Buffer {
public:
    Buffer() = default;
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
    Buffer(Buffer&& o) noexcept { swap(o); }
    Buffer& operator=(Buffer&& o) noexcept
    {
        Buffer(std::move(o)).swap(*this);
        return *this;
    }
    ~Buffer();
    cl_mem get() const { return m_mem; }
    int64_t bytes() const { return m_bytes; }
    explicit operator bool() const { return m_mem != nullptr; }
    void swap(Buffer& o) noexcept
    {
        std::swap(m_mem, o.m_mem);
        std::swap(m_bytes, o.m_bytes);
        std::swap(m_counter, o.m_counter);
    }

private:
    friend class Device;
    cl_mem m_mem = nullptr;
    int64_t m_bytes = 0;
    int64_t* m_counter = nullptr; // the device's allocated bytes
};

// Where the program a Device runs came from.
struct ProgramOrigin {
    bool fromCache = false; // loaded from the compiled-kernel cache: nothing was compiled from source
    bool stored = false;    // compiled from source and written to the cache
    std::string note;       // one line for the run's log ("" without a cache folder)
};

// One OpenCL device ready to run the engine's kernels.
class Device {
public:
    // index: K of "opencl:K"; cacheDir: the compiled-kernel cache folder (kernelCacheDir()), empty for
    // none. Throws ConfigError when there is no such device or it is unusable. The kernels build in
    // the background: waitForProgram() (or the first kernel()) throws DeviceError when they do not.
    explicit Device(int index, std::string cacheDir = {});
    ~Device();
    Device(const Device&) = delete;
    Device& operator=(const Device&) = delete;

    cl_device_id id() const { return m_device; }
    cl_context context() const { return m_context; }
    cl_command_queue& queue() { return m_queue; }
    const std::string& name() const { return m_name; }
    const std::string& platform() const { return m_platform; }
    const std::string& version() const { return m_version; }
    int64_t memoryBytes() const { return m_memory; } // after TRAINBENCH_OPENCL_MEMORY_LIMIT
    int64_t maxAllocBytes() const { return m_maxAlloc; }
    int64_t allocatedBytes() const { return m_allocated; }
    bool limited() const { return m_limited; }

    // A buffer of `bytes`, filled with zeros so that a device that allocates lazily fails here rather
    // than in the middle of a step. Throws DeviceError when it would pass the memory limit.
    Buffer allocate(int64_t bytes, const char* what);

    // Joins the program's build; throws DeviceError when the kernels did not build. A cache entry that
    // cannot be read, loaded or built is not an error: the program is then built from source, the
    // entry replaced, and origin().note says so.
    void waitForProgram();
    const ProgramOrigin& origin() const { return m_origin; } // after waitForProgram()

    cl_kernel kernel(const char* name); // from the embedded program
    // Sets the arguments and enqueues a 1-D range of `global` items (rounded up to `local`).
    template <typename... Args> void run(const char* name, size_t global, size_t local, const Args&... args)
    {
        cl_kernel k = kernel(name);
        cl_uint i = 0;
        (setArg(k, i++, args), ...);
        enqueue(k, name, global, local);
    }
    // blocking false: src must stay as it is until the queue has passed the copy.
    void write(Buffer& b, const void* src, int64_t bytes, int64_t offset = 0, bool blocking = true);
    void read(const Buffer& b, void* dst, int64_t bytes, int64_t offset = 0); // blocking
    void copy(const Buffer& src, Buffer& dst, int64_t bytes);
    void finish();

    // TRAINBENCH_OPENCL_PROFILE=1: every command's device time is recorded under its name (an event
    // per command; slower) and the totals are printed to stderr when the device is closed.
    bool profiling() const { return m_profile; }
    cl_event* event(const std::string& name); // where to store the next command's event, or null

private:
    void buildProgram();
    cl_program buildFromCache(const std::string& key, const std::string& path);
    void buildFromSource();
    void collect();
    static void setArg(cl_kernel k, cl_uint i, const Buffer& b);
    template <typename T> static void setArg(cl_kernel k, cl_uint i, const T& v)
    {
        check(clSetKernelArg(k, i, sizeof(T), &v), "clSetKernelArg");
    }
    void enqueue(cl_kernel k, const char* name, size_t global, size_t local);

    cl_device_id m_device = nullptr;
    cl_context m_context = nullptr;
    cl_command_queue m_queue = nullptr;
    cl_platform_id m_platformId = nullptr;
    cl_program m_program = nullptr;
    std::string m_options, m_cacheDir; // build options; cache folder ("" for none)
    std::thread m_builder;             // builds m_program (buildProgram) until waitForProgram()
    std::exception_ptr m_buildError;
    ProgramOrigin m_origin;
    std::map<std::string, cl_kernel> m_kernels;
    std::string m_name, m_platform, m_version;
    int64_t m_memory = 0, m_maxAlloc = 0, m_allocated = 0;
    bool m_limited = false;
    bool m_profile = false;
    std::vector<std::pair<std::string, cl_event>> m_events;
    std::map<std::string, std::pair<double, int64_t>> m_profileTotals; // name: seconds, count
};

} // namespace tb::ocl
