// Softmax cross-entropy fused with the last layer (train/loss.cpp), and the batch's metrics.

// One item per sample of logits [n][classes]: its loss, whether argmax == label, and when asked
// (softmax - onehot) * gradScale into dlogits and the softmax into probs.
__kernel void softmax_xent(__global const float* logits, __global const int* labels, int n, int classes,
                           float gradScale, int writeGrad, __global float* dlogits, int writeProbs,
                           __global float* probs, __global float* loss, __global int* correct)
{
    const int i = get_global_id(0);
    if (i >= n)
        return;
    __global const float* z = logits + (long)i * classes;
    int arg = 0;
    float zmax = z[0];
    for (int c = 1; c < classes; ++c)
        if (z[c] > zmax) {
            zmax = z[c];
            arg = c;
        }
    float total = 0.0f;
    for (int c = 0; c < classes; ++c)
        total += exp(z[c] - zmax);
    const float logTotal = log(total);
    const int label = labels[i];
    loss[i] = logTotal - (z[label] - zmax);
    correct[i] = arg == label ? 1 : 0;
    for (int c = 0; c < classes; ++c) {
        const float p = exp(z[c] - zmax - logTotal);
        if (writeProbs)
            probs[(long)i * classes + c] = p;
        if (writeGrad)
            dlogits[(long)i * classes + c] = (p - (c == label ? 1.0f : 0.0f)) * gradScale;
    }
}

// status[0] = the loss sum (float bits), status[1] = correct predictions; one work-group.
__kernel void reduce_metrics(__global const float* loss, __global const int* correct, int n, __global int* status)
{
    __local float scratch[WG];
    const int l = get_local_id(0);
    float s = 0.0f, k = 0.0f;
    for (int i = l; i < n; i += WG) {
        s += loss[i];
        k += (float)correct[i];
    }
    s = tb_group_sum(scratch, s);
    k = tb_group_sum(scratch, k);
    if (l == 0) {
        status[0] = as_int(s);
        status[1] = (int)k;
    }
}
