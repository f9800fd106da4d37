// The OpenCL device: trains and evaluates a Network on one OpenCL device (a GPU through its vendor's
// driver, or the CPU through PoCL). Weights, activations, gradients, BatchNorm statistics and the
// optimizer's state live in device memory; the uint8 splits go up once, then a step sends only its
// sample indices and reads back only its loss, accuracy and divergence flags. Matrix products run
// through CLBlast, everything else through the kernels in kernels/*.cl (embedded at build time).
// Only built when the build has OpenCL (TRAINBENCH_HAVE_OPENCL).
#pragma once

#include "device/backend.hpp"
#include "device/opencl/opencl_runtime.hpp"

#include <memory>

namespace tb {

// Fault injection for tests (no front end calls it): every OpenClBackend made afterwards loses its
// device at its `step`-th training step (-1: never), as a GPU reset or an unplugged eGPU would.
void loseOpenClDevicesAtStep(int64_t step);

class OpenClBackend : public Backend {
public:
    // Throws ConfigError when the device is missing or unusable or the model and a batch of
    // `batchSize` would not fit its memory (before anything large is allocated), ModelError for a
    // layer it cannot run, DeviceError when its kernels do not build.
    // kernelCacheDir: the compiled-kernel cache folder (kernelCacheDir()), empty for none.
    OpenClBackend(Network& net, const Dataset& data, const DeviceSpec& device, const OptimizerConfig& optimizer,
                  int batchSize, const std::string& kernelCacheDir = {});
    ~OpenClBackend() override;

    // The device memory a run needs (weights and their copies, one batch's buffers, the splits).
    static int64_t requiredBytes(const Network& net, const Dataset& data, int batchSize);

    const DeviceSpec& device() const override { return m_spec; }
    std::string describe() const override;
    // Where its kernels came from, and for a device that is the CPU itself (PoCL) why it is slow.
    std::string setupNote() const override;
    // Where the kernels came from (tests check that a second backend loads them from the cache).
    const ocl::ProgramOrigin& programOrigin() const { return m_dev->origin(); }
    BatchResult trainBatch(const int* indices, int count, uint64_t dropoutKey) override;
    EvalResult evaluate(const ImageSplit& split, int sizeMultiplier, int limit = 0,
                        EvalKeeps keeps = EvalKeeps::Metrics, const std::atomic<bool>* cancel = nullptr) override;
    void syncToHost() override;
    void syncFromHost() override;
    void setLearningRate(float lr) override { m_opt.learningRate = lr; }
    int64_t iterations() const override { return m_iterations; }
    OptimizerState optimizerState() const override;
    void setOptimizerState(const OptimizerState& state) override;

    // The gradient of the last training step (tests compare it with the CPU engine's).
    std::vector<float> lastGradient();

private:
    struct LayerPlan;
    void forward(int l, int n, bool training, uint64_t dropoutKey);
    void backward(int l, int n, ocl::Buffer& dy, ocl::Buffer* dx);
    void kernelGradient(const LayerPlan& p, ocl::Buffer& dy, size_t dyOffset, size_t ldy, size_t cols);
    void gemm(bool transA, bool transB, size_t m, size_t n, size_t k, const ocl::Buffer& a, size_t aOffset, size_t lda,
              const ocl::Buffer& b, size_t bOffset, size_t ldb, float beta, ocl::Buffer& c, size_t cOffset, size_t ldc);
    void gather(const ocl::Buffer& pixels, const ocl::Buffer& labels, const ImageSplit& split, int mult, bool useIdx,
                int first, int n);
    void checkUsable() const;
    static void check(cl_int err);
    static void checkBlas(int status, const char* what); // a clblast::StatusCode

    Network& m_net;
    const Dataset& m_data;
    DeviceSpec m_spec;
    OptimizerConfig m_opt;
    int64_t m_iterations = 0;
    uint64_t m_dropoutKey = 0; // the current step's
    int m_capacity = 0;        // samples per batch the buffers hold
    int64_t m_colsCapacity = 0;
    int64_t m_steps = 0;       // trainBatch calls
    int64_t m_loseAtStep = -1; // loseOpenClDevicesAtStep: simulate a lost device
    bool m_lost = false;
    std::unique_ptr<ocl::Device> m_dev;
    std::vector<std::unique_ptr<LayerPlan>> m_plans;

    ocl::Buffer m_params, m_nextParams, m_grad; // (P)
    ocl::Buffer m_slots, m_nextSlots;           // (slots * P)
    ocl::Buffer m_state, m_stateBefore;         // (S) BatchNorm's moving statistics
    ocl::Buffer m_trainPixels, m_trainLabels;   // the training split, uint8
    ocl::Buffer m_testPixels, m_testLabels;     // the test split, uint8
    ocl::Buffer m_indices;                      // (capacity) the step's sample indices
    ocl::Buffer m_labels, m_loss, m_correct;    // (capacity)
    ocl::Buffer m_probs;                        // (capacity, classes)
    ocl::Buffer m_status;                       // loss sum, correct, gradient / weights not finite
    ocl::Buffer m_cols;                         // (colsCapacity) Conv2D's im2col columns
    ocl::Buffer m_partials;                     // Conv2D's kernel gradient in pieces (splits, Cout, K)
    ocl::Buffer m_gemmTemp;                     // CLBlast's scratch, grown to the largest product's need
    ocl::Buffer m_dbuf[2];                      // (capacity * max activation) ping-pong gradients
    std::vector<ocl::Buffer> m_acts;            // activations (capacity * size each)
    std::vector<int> m_actOf;                   // (layers + 1) which of m_acts holds each layer's input/output
    std::vector<int> m_hostIndices;
};

} // namespace tb
