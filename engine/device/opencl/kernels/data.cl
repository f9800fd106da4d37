// Batches from the uint8 splits kept on the device: the only data a step sends up is the indices.

// x [1][n][H][W] (H = h*m, W = w*m): sample i is image idx[first + i] (or first + i when !useIdx),
// scaled up by m (nearest neighbour) and multiplied by scale, as data/dataset.cpp's imageToFloat.
__kernel void gather_images(__global const uchar* pixels, __global const int* idx, int useIdx, int first, int n,
                            int h, int w, int m, float scale, __global float* x)
{
    const int g = get_global_id(0);
    const int H = h * m, W = w * m;
    if (g >= n * H * W)
        return;
    const int i = g / (H * W), r = g % (H * W);
    const int image = useIdx ? idx[first + i] : first + i;
    x[g] = (float)pixels[(long)image * h * w + (r / W / m) * w + (r % W) / m] * scale;
}

__kernel void gather_labels(__global const uchar* labels, __global const int* idx, int useIdx, int first, int n,
                            __global int* out)
{
    const int i = get_global_id(0);
    if (i < n)
        out[i] = labels[useIdx ? idx[first + i] : first + i];
}
