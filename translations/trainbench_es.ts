<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="es_ES" sourcelanguage="en">
<context>
    <name>ClassNames</name>
    <message>
        <source>T-shirt/top</source>
        <translation>Camiseta/top</translation>
    </message>
    <message>
        <source>Trouser</source>
        <translation>Pantalón</translation>
    </message>
    <message>
        <source>Pullover</source>
        <translation>Jersey</translation>
    </message>
    <message>
        <source>Dress</source>
        <translation>Vestido</translation>
    </message>
    <message>
        <source>Coat</source>
        <translation>Abrigo</translation>
    </message>
    <message>
        <source>Sandal</source>
        <translation>Sandalia</translation>
    </message>
    <message>
        <source>Shirt</source>
        <translation>Camisa</translation>
    </message>
    <message>
        <source>Sneaker</source>
        <translation>Zapatilla</translation>
    </message>
    <message>
        <source>Bag</source>
        <translation>Bolso</translation>
    </message>
    <message>
        <source>Ankle boot</source>
        <translation>Botín</translation>
    </message>
    <message>
        <source>class %1</source>
        <translation>clase %1</translation>
    </message>
</context>
<context>
    <name>DeviceText</name>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>accelerator</source>
        <translation>acelerador</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <comment>OpenCL device type, platform</comment>
        <translation>%1, %2</translation>
    </message>
    <message>
        <source>OpenCL: %1 (%2)</source>
        <translation>OpenCL: %1 (%2)</translation>
    </message>
    <message>
        <source>%1, unavailable: %2</source>
        <translation>%1, no disponible: %2</translation>
    </message>
    <message>
        <source>%1 compute units at %2 MHz</source>
        <translation>%1 unidades de cómputo a %2 MHz</translation>
    </message>
    <message>
        <source>%1 compute units</source>
        <translation>%1 unidades de cómputo</translation>
    </message>
    <message>
        <source>%1, %2, %3, about %4 GFLOP/s FP32</source>
        <translation>%1, %2, %3, unos %4 GFLOP/s en FP32</translation>
    </message>
    <message>
        <source>OpenCL: none usable (%1)</source>
        <translation>OpenCL: ninguno utilizable (%1)</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <comment>OpenCL device name — details</comment>
        <translation>%1 — %2</translation>
    </message>
</context>
<context>
    <name>EngineText</name>
    <message>
        <source>dataset folder %1 does not exist</source>
        <translation>la carpeta de datos %1 no existe</translation>
    </message>
    <message>
        <source>no %1 file in %2</source>
        <translation>no hay ningún archivo %1 en %2</translation>
    </message>
    <message>
        <source>%1 holds %2 labels but %3 holds %4 images</source>
        <translation>%1 contiene %2 etiquetas pero %3 contiene %4 imágenes</translation>
    </message>
    <message>
        <source>%1: cannot open: %2</source>
        <translation>%1: no se puede abrir: %2</translation>
    </message>
    <message>
        <source>%1: the file is too short to hold an IDX header (%2 bytes)</source>
        <translation>%1: el archivo es demasiado corto para contener una cabecera IDX (%2 bytes)</translation>
    </message>
    <message>
        <source>%1: is truncated: the header declares %2 data bytes but only %3 are present</source>
        <translation>%1: está truncado: la cabecera declara %2 bytes de datos pero solo hay %3</translation>
    </message>
    <message>
        <source>%1: is longer than its header says: extra bytes after the declared %2</source>
        <translation>%1: es más largo de lo que dice su cabecera: sobran bytes tras los %2 declarados</translation>
    </message>
    <message>
        <source>training diverged at epoch %1, step %2: the %3 became NaN or infinite. The weights of the last good step were kept; try a lower learning rate.</source>
        <translation>el entrenamiento divergió en la época %1, paso %2: apareció un NaN o un infinito en %3. Se conservaron los pesos del último paso correcto; prueba con una tasa de aprendizaje menor.</translation>
    </message>
    <message>
        <source>gradient</source>
        <translation>el gradiente</translation>
    </message>
    <message>
        <source>updated weights</source>
        <translation>los pesos actualizados</translation>
    </message>
    <message>
        <source>no GPU available: %1</source>
        <translation>no hay ninguna GPU disponible: %1</translation>
    </message>
    <message>
        <source>The MNIST CNN from the TPU article (BatchNorm without scale, no biases before BN), pixels scaled to 0-1.</source>
        <translation>La CNN de MNIST del artículo sobre TPU (BatchNorm sin escala, sin sesgos antes de BN), píxeles escalados a 0-1.</translation>
    </message>
    <message>
        <source>The Fashion-MNIST CNN from the Spanish Colab tutorial (three 5x5 conv blocks with ELU), fed raw 0-255 pixels.</source>
        <translation>La CNN de Fashion-MNIST del tutorial de Colab en español (tres bloques convolucionales 5x5 con ELU), con píxeles sin escalar de 0 a 255.</translation>
    </message>
    <message>
        <source>The classic Keras MNIST example (two 3x3 convs, max pooling, dropout), pixels scaled to 0-1.</source>
        <translation>El ejemplo clásico de MNIST de Keras (dos convoluciones 3x3, max pooling, dropout), píxeles escalados a 0-1.</translation>
    </message>
    <message>
        <source>%1: not an IDX file (bad magic number %2; expected %3)</source>
        <translation>%1: no es un archivo IDX (número mágico incorrecto %2; se esperaba %3)</translation>
    </message>
    <message>
        <source>%1: is longer than its header says: %2 extra bytes after the declared %3</source>
        <translation>%1: es más largo de lo que dice su cabecera: %2 bytes de más tras los %3 declarados</translation>
    </message>
    <message>
        <source>%1: not a Trainbench weights file (bad magic)</source>
        <translation>%1: no es un archivo de pesos de Trainbench (firma incorrecta)</translation>
    </message>
    <message>
        <source>%1: the file is corrupt or truncated (checksum mismatch)</source>
        <translation>%1: el archivo está dañado o truncado (la suma de comprobación no coincide)</translation>
    </message>
    <message>
        <source>%1: the header length is larger than the file</source>
        <translation>%1: la longitud de la cabecera supera el tamaño del archivo</translation>
    </message>
    <message>
        <source>%1: the file size does not match its header (corrupt or truncated)</source>
        <translation>%1: el tamaño del archivo no coincide con su cabecera (dañado o truncado)</translation>
    </message>
    <message>
        <source>%1: the header lacks "%2"; the file is corrupt</source>
        <translation>%1: a la cabecera le falta "%2"; el archivo está dañado</translation>
    </message>
    <message>
        <source>%1: the header lacks the model</source>
        <translation>%1: a la cabecera le falta el modelo</translation>
    </message>
    <message>
        <source>%1: the header lacks the input shape</source>
        <translation>%1: a la cabecera le falta la forma de la entrada</translation>
    </message>
    <message>
        <source>%1: the header lacks the optimizer</source>
        <translation>%1: a la cabecera le falta el optimizador</translation>
    </message>
    <message>
        <source>%1: corrupt header: %2</source>
        <translation>%1: cabecera dañada: %2</translation>
    </message>
    <message>
        <source>%1: the header cannot be read (%2); the file is corrupt</source>
        <translation>%1: la cabecera no se puede leer (%2); el archivo está dañado</translation>
    </message>
    <message>
        <source>the model classifies %1 classes but %2 has %3</source>
        <translation>el modelo clasifica %1 clases pero %2 tiene %3</translation>
    </message>
    <message>
        <source>JSON error at line %1, column %2: %3</source>
        <translation>error de JSON en la línea %1, columna %2: %3</translation>
    </message>
    <message>
        <source>%1: a model file holds a JSON object with "layers"</source>
        <translation>%1: un archivo de modelo contiene un objeto JSON con "layers"</translation>
    </message>
    <message>
        <source>%1: "name" must be a string</source>
        <translation>%1: "name" debe ser una cadena</translation>
    </message>
    <message>
        <source>%1: "layers" must be a non-empty array</source>
        <translation>%1: "layers" debe ser una lista no vacía</translation>
    </message>
    <message>
        <source>%1: each layer is a JSON object</source>
        <translation>%1: cada capa es un objeto JSON</translation>
    </message>
    <message>
        <source>%1: needs a "type" such as "Conv2D"</source>
        <translation>%1: necesita un "type" como "Conv2D"</translation>
    </message>
    <message>
        <source>%1: unknown layer type "%2" (known: %3)</source>
        <translation>%1: tipo de capa desconocido "%2" (conocidos: %3)</translation>
    </message>
    <message>
        <source>%1: unknown argument "%2"</source>
        <translation>%1: argumento desconocido "%2"</translation>
    </message>
    <message>
        <source>%1: the model description cannot be read (%2)</source>
        <translation>%1: la descripción del modelo no se puede leer (%2)</translation>
    </message>
    <message>
        <source>"%1" is neither a preset (%2) nor a readable model file</source>
        <translation>"%1" no es ni un modelo predefinido (%2) ni un archivo de modelo legible</translation>
    </message>
    <message>
        <source>%1: the checkpoint lacks "%2"; it is damaged or not a checkpoint</source>
        <translation>%1: al punto de control le falta "%2"; está dañado o no es un punto de control</translation>
    </message>
    <message>
        <source>%1 is a weights file, not a checkpoint: it does not say where its run stands</source>
        <translation>%1 es un archivo de pesos, no un punto de control: no dice en qué punto está su entrenamiento</translation>
    </message>
    <message>
        <source>%1: a checkpoint of another format or version</source>
        <translation>%1: un punto de control de otro formato o versión</translation>
    </message>
    <message>
        <source>%1: the checkpoint's settings are damaged (%2)</source>
        <translation>%1: los ajustes del punto de control están dañados (%2)</translation>
    </message>
    <message>
        <source>%1 was made on another dataset than %2: the labels differ, although the counts and sizes are the same</source>
        <translation>%1 se hizo con otro conjunto de datos que %2: las etiquetas difieren, aunque los recuentos y tamaños coinciden</translation>
    </message>
    <message>
        <source>the folder holds no run.json (removed, or the run never started)</source>
        <translation>la carpeta no contiene run.json (se eliminó, o el entrenamiento nunca empezó)</translation>
    </message>
    <message>
        <source>run.json cannot be read: %1</source>
        <translation>run.json no se puede leer: %1</translation>
    </message>
    <message>
        <source>run.json is empty</source>
        <translation>run.json está vacío</translation>
    </message>
    <message>
        <source>run.json is damaged: %1</source>
        <translation>run.json está dañado: %1</translation>
    </message>
    <message>
        <source>it is not a Trainbench run record</source>
        <translation>no es un registro de entrenamiento de Trainbench</translation>
    </message>
    <message>
        <source>its version (%1) is not one this Trainbench reads</source>
        <translation>su versión (%1) no es una que este Trainbench lea</translation>
    </message>
    <message>
        <source>it is not a folder</source>
        <translation>no es una carpeta</translation>
    </message>
    <message>
        <source>it cannot be read: %1</source>
        <translation>no se puede leer: %1</translation>
    </message>
    <message>
        <source>evaluation.json is damaged: %1</source>
        <translation>evaluation.json está dañado: %1</translation>
    </message>
    <message>
        <source>%1 kernels (%2; matrix products: %3)</source>
        <translation>kernels %1 (%2; productos de matrices: %3)</translation>
    </message>
    <message>
        <source>own %1 FMA kernel</source>
        <translation>kernel FMA propio de %1</translation>
    </message>
    <message>
        <source>Precise BN: BatchNorm's moving statistics were recomputed over %1 training batches (%2 images) after training; the test accuracy uses them.</source>
        <translation>BN precisa: las estadísticas móviles de BatchNorm se recalcularon con %1 lotes de entrenamiento (%2 imágenes) tras entrenar; la exactitud de prueba las usa.</translation>
    </message>
    <message>
        <source>%1: not a Trainbench weights file (.tbw) nor a safetensors file</source>
        <translation>%1: no es un archivo de pesos de Trainbench (.tbw) ni un archivo safetensors</translation>
    </message>
    <message>
        <source>the model was trained on %1x%2 images but %3 holds %4x%5 images</source>
        <translation>el modelo se entrenó con imágenes de %1×%2 pero %3 tiene imágenes de %4×%5</translation>
    </message>
    <message>
        <source>this CPU has no AVX512_BF16, which bf16 needs (%1); it is not emulated</source>
        <translation>esta CPU no tiene AVX512_BF16, que bf16 necesita (%1); no se emula</translation>
    </message>
    <message>
        <source>AMD Zen 4 and later, Intel Cooper Lake, Sapphire Rapids and later</source>
        <translation>AMD Zen 4 y posteriores, Intel Cooper Lake, Sapphire Rapids y posteriores</translation>
    </message>
    <message>
        <source>bf16 runs on the avx512 kernels, not on %1</source>
        <translation>bf16 funciona con los kernels avx512, no con %1</translation>
    </message>
    <message>
        <source>%1 computes in FP32 only: bf16 is for the CPU</source>
        <translation>%1 calcula solo en FP32: bf16 es para la CPU</translation>
    </message>
    <message>
        <source>own %1 AVX512_BF16 kernel (bf16 inputs, FP32 sums)</source>
        <translation>kernel AVX512_BF16 propio de %1 (entradas bf16, sumas FP32)</translation>
    </message>
    <message>
        <source>bf16 on this Intel CPU: its cores run vdpbf16ps at half the multiply-adds per cycle of FP32's FMA, so bf16 trains slower than FP32 where the matrix products dominate (colab-fashion-cnn) and faster only where they do not; AMX-BF16 is not used</source>
        <translation>bf16 en esta CPU Intel: sus núcleos ejecutan vdpbf16ps a la mitad de multiplicaciones-sumas por ciclo que el FMA de FP32, así que bf16 entrena más despacio que FP32 donde dominan los productos de matrices (colab-fashion-cnn) y más deprisa solo donde no; AMX-BF16 no se usa</translation>
    </message>
    <message>
        <source>bf16 on this CPU's AMX-BF16 tiles: they sum in an order of their own, so its bf16 weights differ in their last bits from those of CPUs without them (TRAINBENCH_BF16_KERNELS=avx512bf16 gives those)</source>
        <translation>bf16 en los tiles AMX-BF16 de esta CPU: suman en un orden propio, así que sus pesos bf16 difieren en los últimos bits de los de las CPU que no los tienen (TRAINBENCH_BF16_KERNELS=avx512bf16 da esos)</translation>
    </message>
    <message>
        <source>%1; matrix products: %2</source>
        <translation>%1; productos de matrices: %2</translation>
    </message>
    <message>
        <source>OpenCL kernels: loaded from the cache (%1)</source>
        <translation>Kernels OpenCL: cargados de la caché (%1)</translation>
    </message>
    <message>
        <source>OpenCL kernels: compiled from source; stored in the cache (%1)</source>
        <translation>Kernels OpenCL: compilados desde el código fuente; guardados en la caché (%1)</translation>
    </message>
    <message>
        <source>OpenCL kernels: compiled from source; not stored in the cache: %1</source>
        <translation>Kernels OpenCL: compilados desde el código fuente; no se guardaron en la caché: %1</translation>
    </message>
    <message>
        <source>OpenCL kernels: compiled from source because the cached copy %1; stored in the cache (%2)</source>
        <translation>Kernels OpenCL: compilados desde el código fuente porque la copia de la caché %1; guardados en la caché (%2)</translation>
    </message>
    <message>
        <source>%1 training / %2 validation sequences of %3 bytes (%4 bytes of text), byte-level vocabulary of %5 symbols</source>
        <translation>%1 secuencias de entrenamiento / %2 de validación de %3 bytes (%4 bytes de texto), vocabulario de %5 símbolos por byte</translation>
    </message>
    <message>
        <source>%1 training / %2 validation sequences of %3 characters (%4 bytes of text), character-level vocabulary of %5 symbols</source>
        <translation>%1 secuencias de entrenamiento / %2 de validación de %3 caracteres (%4 bytes de texto), vocabulario de %5 símbolos por carácter</translation>
    </message>
    <message>
        <source>generic</source>
        <translation>genéricas</translation>
    </message>
    <message>
        <source>MNIST digits</source>
        <translation>dígitos MNIST</translation>
    </message>
    <message>
        <source>%1 training / %2 test images, %3×%4, %5 classes (%6)</source>
        <translation>%1 imágenes de entrenamiento / %2 de prueba, %3×%4, %5 clases (%6)</translation>
    </message>
    <message>
        <source>CPU, 1 thread</source>
        <translation>CPU, 1 hilo</translation>
    </message>
    <message>
        <source>CPU, %1 threads</source>
        <translation>CPU, %1 hilos</translation>
    </message>
    <message>
        <source>, bf16 (bfloat16 products, FP32 accumulation)</source>
        <translation>, bf16 (productos en bfloat16, sumas en FP32)</translation>
    </message>
    <message>
        <source>Model %1 (%2 params) on %3: %4</source>
        <translation>Modelo %1 (%2 parámetros) con %3: %4</translation>
    </message>
    <message>
        <source>%1, batch %2, %3 lr %4, seed %5, %6</source>
        <translation>%1, lote %2, %3 con tasa de aprendizaje %4, semilla %5, %6</translation>
    </message>
    <message>
        <source>%1 is a file; choose the folder that holds the IDX files (a text trains a text model, such as small-text-lstm)</source>
        <translation>%1 es un archivo; elige la carpeta que contiene los archivos IDX (un texto entrena un modelo de texto, como small-text-lstm)</translation>
    </message>
    <message>
        <source>%1 holds IDX images, not texts: a text model trains on a text file or a folder of texts, an image model on IDX images</source>
        <translation>%1 contiene imágenes IDX, no textos: un modelo de texto entrena con un archivo de texto o una carpeta de textos, un modelo de imágenes con imágenes IDX</translation>
    </message>
    <message>
        <source>The Shakespeare character model from the Keras TPU notebook: Embedding(256, 512), two LSTM(512), Dense(256) softmax at every step, over 100-byte sequences (byte-level text; 4,460,800 parameters).</source>
        <translation>El modelo de caracteres de Shakespeare del notebook de Keras para TPU: Embedding(256, 512), dos LSTM(512), Dense(256) softmax en cada paso, sobre secuencias de 100 bytes (texto por bytes; 4.460.800 parámetros).</translation>
    </message>
    <message>
        <source>%1 and %2 in %3 hold different data: keep the one you mean to train on</source>
        <translation>%1 y %2 en %3 contienen datos distintos: deja el que quieras usar para entrenar</translation>
    </message>
    <message>
        <source>%1 training / %2 validation (held out of training) / %3 test images, %4×%5, %6 classes (%7)</source>
        <translation>%1 imágenes de entrenamiento / %2 de validación (apartadas del entrenamiento) / %3 de prueba, %4×%5, %6 clases (%7)</translation>
    </message>
    <message>
        <source>the weights were trained on a dataset with other classes (%1) than %2 (%3); the accuracy counts the predictions whose class number is the label's</source>
        <translation>los pesos se entrenaron con un conjunto de datos de otras clases (%1) que %2 (%3); la exactitud cuenta las predicciones cuyo número de clase es el de la etiqueta</translation>
    </message>
    <message>
        <source>%1 holds no checkpoint.tbw to resume from</source>
        <translation>%1 no contiene ningún checkpoint.tbw desde el que reanudar</translation>
    </message>
    <message>
        <source>%1 is not a run folder (no such folder)</source>
        <translation>%1 no es la carpeta de un entrenamiento (no existe)</translation>
    </message>
    <message>
        <source>%1 is a file, not a run folder: a run goes on from the folder it wrote in the runs folder, which holds its checkpoint.tbw and run.json</source>
        <translation>%1 es un archivo, no la carpeta de un entrenamiento: un entrenamiento continúa desde la carpeta que escribió en la carpeta de entrenamientos, que contiene su checkpoint.tbw y su run.json</translation>
    </message>
    <message>
        <source>cannot write %1: %2; nothing was written</source>
        <translation>no se puede escribir %1: %2; no se escribió nada</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>no se puede escribir %1: %2</translation>
    </message>
    <message>
        <source>the folder %1 does not exist</source>
        <translation>la carpeta %1 no existe</translation>
    </message>
    <message>
        <source>%1 is not a folder</source>
        <translation>%1 no es una carpeta</translation>
    </message>
    <message>
        <source>it is a folder; give the name of a file in it</source>
        <translation>es una carpeta; indica el nombre de un archivo dentro de ella</translation>
    </message>
    <message>
        <source>training diverged at epoch %1, step %2: the loss became NaN or infinite with the weights the step before left, so no weights were kept; try a lower learning rate.</source>
        <translation>el entrenamiento divergió en la época %1, paso %2: la pérdida se volvió NaN o infinita con los pesos que dejó el paso anterior, así que no se conservó ningún peso; prueba una tasa de aprendizaje menor.</translation>
    </message>
    <message>
        <source>the weights give outputs that are not numbers (NaN or infinite): they are far too large, as a run that diverged leaves them, or the file is damaged; train again, with a lower learning rate</source>
        <translation>los pesos dan salidas que no son números (NaN o infinitas): son demasiado grandes, como los deja un entrenamiento que divergió, o el archivo está dañado; vuelve a entrenar con una tasa de aprendizaje menor</translation>
    </message>
    <message>
        <source>BatchNorm's moving statistics still hold %2% of their initial values (mean 0, variance 1) after 1 step at momentum %1, so the test accuracy can be lower than the training accuracy. Train longer, or set Advanced → Precise BN (100 batches) and train again.</source>
        <translation>Las estadísticas móviles de BatchNorm aún conservan un %2% de sus valores iniciales (media 0, varianza 1) tras 1 paso con momento %1, así que la exactitud de prueba puede quedar por debajo de la de entrenamiento. Entrena más, o activa Avanzado → BN precisa (100 lotes) y vuelve a entrenar.</translation>
    </message>
    <message>
        <source>BatchNorm's moving statistics still hold %2% of their initial values (mean 0, variance 1) after %3 steps at momentum %1, so the test accuracy can be lower than the training accuracy. Train longer, or set Advanced → Precise BN (100 batches) and train again.</source>
        <translation>Las estadísticas móviles de BatchNorm aún conservan un %2% de sus valores iniciales (media 0, varianza 1) tras %3 pasos con momento %1, así que la exactitud de prueba puede quedar por debajo de la de entrenamiento. Entrena más, o activa Avanzado → BN precisa (100 lotes) y vuelve a entrenar.</translation>
    </message>
    <message>
        <source>%1: "input_scale" must be a number between 1e-30 and 1e30</source>
        <translation>%1: "input_scale" debe ser un número entre 1e-30 y 1e30</translation>
    </message>
    <message>
        <source>out of memory: this needs more memory than the machine could give; a smaller model, batch or dataset may fit</source>
        <translation>sin memoria: hace falta más memoria de la que la máquina pudo dar; un modelo, un lote o un conjunto de datos más pequeño puede caber</translation>
    </message>
    <message>
        <source>, FP32</source>
        <translation>, FP32</translation>
    </message>
    <message>
        <source>A small character model that learns a text in minutes on two CPU cores: Embedding(256, 32), one LSTM(128), Dense softmax over the vocabulary at every step, over sequences of 64 symbols (bytes, or characters with a character-level vocabulary).</source>
        <translation>Un modelo de caracteres pequeño que aprende un texto en minutos con dos núcleos de CPU: Embedding(256, 32), una LSTM(128), Dense softmax sobre el vocabulario en cada paso, sobre secuencias de 64 símbolos (bytes, o caracteres con un vocabulario por caracteres).</translation>
    </message>
    <message>
        <source>%1: not an IDX file but a gzip-compressed one: name it %1.gz, or decompress it (gunzip)</source>
        <translation>%1: no es un archivo IDX sino uno comprimido con gzip: llámalo %1.gz, o descomprímelo (gunzip)</translation>
    </message>
    <message>
        <source>the model takes %1 images and %2 holds %3 ones: they are enlarged %4 times (each pixel repeated) to fit</source>
        <translation>el modelo toma imágenes de %1 y %2 las tiene de %3: se amplían %4 veces (cada píxel repetido) para que encajen</translation>
    </message>
    <message>
        <source>%1: the header is truncated (dimension %2 is missing)</source>
        <translation>%1: la cabecera está truncada (falta la dimensión %2)</translation>
    </message>
    <message>
        <source>%1: dimension %2 is absurd (%3)</source>
        <translation>%1: la dimensión %2 es absurda (%3)</translation>
    </message>
    <message>
        <source>%1: has %2 dimensions; expected 3 (images, rows, columns)</source>
        <translation>%1: tiene %2 dimensiones; se esperaban 3 (imágenes, filas, columnas)</translation>
    </message>
    <message>
        <source>%1: has %2 dimensions; expected 1 (labels)</source>
        <translation>%1: tiene %2 dimensiones; se esperaba 1 (etiquetas)</translation>
    </message>
    <message>
        <source>%1: holds IDX data type 0x%2; only unsigned bytes (0x08) are supported</source>
        <translation>%1: contiene datos IDX de tipo 0x%2; solo se admiten bytes sin signo (0x08)</translation>
    </message>
    <message>
        <source>%1: declares %2 bytes of data (%3), more than this machine can hold (%4); the header is probably corrupt</source>
        <translation>%1: declara %2 bytes de datos (%3), más de lo que cabe en esta máquina (%4); la cabecera probablemente está dañada</translation>
    </message>
    <message>
        <source>%1: the gzip data is corrupt (%2)</source>
        <translation>%1: los datos gzip están dañados (%2)</translation>
    </message>
    <message>
        <source>%1: has bytes after the end of its gzip data that are not gzip data (the file is damaged, or something was appended to it)</source>
        <translation>%1: tiene bytes tras el final de sus datos gzip que no son datos gzip (el archivo está dañado, o se le añadió algo)</translation>
    </message>
    <message>
        <source>%1: read error: %2</source>
        <translation>%1: error de lectura: %2</translation>
    </message>
    <message>
        <source>%1: images of %2x%3 pixels are larger than Trainbench supports (4096x4096)</source>
        <translation>%1: imágenes de %2x%3 píxeles, más grandes de lo que admite Trainbench (4096x4096)</translation>
    </message>
    <message>
        <source>train images are %1x%2 but test images are %3x%4</source>
        <translation>las imágenes de entrenamiento son de %1x%2 pero las de prueba son de %3x%4</translation>
    </message>
    <message>
        <source>%1 holds a single class (0); a classifier needs at least two</source>
        <translation>%1 contiene una sola clase (0); un clasificador necesita al menos dos</translation>
    </message>
    <message>
        <source>classes.txt line %1 is not valid UTF-8 (at byte %2): save it as UTF-8</source>
        <translation>la línea %1 de classes.txt no es UTF-8 válido (en el byte %2): guárdalo como UTF-8</translation>
    </message>
    <message>
        <source>classes.txt names %1 classes but %2 uses labels up to %3</source>
        <translation>classes.txt nombra %1 clases pero %2 usa etiquetas hasta %3</translation>
    </message>
    <message>
        <source>t10k-labels uses label %1 but the training labels only cover 0..%2</source>
        <translation>t10k-labels usa la etiqueta %1 pero las etiquetas de entrenamiento solo cubren 0..%2</translation>
    </message>
    <message>
        <source>the text %1 holds %2 bytes, shorter than one sequence of %3 on each side of the training/validation split (at least %4 needed); use a longer text or a shorter sequence length</source>
        <translation>el texto %1 contiene %2 bytes, menos que una secuencia de %3 a cada lado de la división entre entrenamiento y validación (hacen falta al menos %4); usa un texto más largo o una longitud de secuencia más corta</translation>
    </message>
    <message>
        <source>the text %1 holds %2 characters, shorter than one sequence of %3 on each side of the training/validation split (at least %4 needed); use a longer text or a shorter sequence length</source>
        <translation>el texto %1 contiene %2 caracteres, menos que una secuencia de %3 a cada lado de la división entre entrenamiento y validación (hacen falta al menos %4); usa un texto más largo o una longitud de secuencia más corta</translation>
    </message>
    <message>
        <source>the text %1 does not exist</source>
        <translation>el texto %1 no existe</translation>
    </message>
    <message>
        <source>the text %1 is empty</source>
        <translation>el texto %1 está vacío</translation>
    </message>
    <message>
        <source>the folder %1 holds no text files</source>
        <translation>la carpeta %1 no contiene archivos de texto</translation>
    </message>
    <message>
        <source>cannot list the folder %1: %2</source>
        <translation>no se puede listar la carpeta %1: %2</translation>
    </message>
    <message>
        <source>cannot read the text file %1: %2</source>
        <translation>no se puede leer el archivo de texto %1: %2</translation>
    </message>
    <message>
        <source>%1 is gzip-compressed, not text: decompress it first (gunzip -k)</source>
        <translation>%1 está comprimido con gzip, no es texto: descomprímelo primero (gunzip -k)</translation>
    </message>
    <message>
        <source>%1 looks binary, not text (a zero byte at offset %2)</source>
        <translation>%1 parece binario, no texto (un byte cero en la posición %2)</translation>
    </message>
    <message>
        <source>%1 looks binary, not text (%2 of its %3 bytes are control characters)</source>
        <translation>%1 parece binario, no texto (%2 de sus %3 bytes son caracteres de control)</translation>
    </message>
    <message>
        <source>%1 is not valid UTF-8 (at byte %2); a character-level vocabulary needs UTF-8, the byte-level one reads any text</source>
        <translation>%1 no es UTF-8 válido (en el byte %2); un vocabulario de caracteres necesita UTF-8, el de bytes lee cualquier texto</translation>
    </message>
    <message>
        <source>the text %1 has %2 distinct characters; a character-level vocabulary holds at most 256 (use the byte-level one)</source>
        <translation>el texto %1 tiene %2 caracteres distintos; un vocabulario de caracteres admite como mucho 256 (usa el de bytes)</translation>
    </message>
    <message>
        <source>%1 is an image dataset, not a text</source>
        <translation>%1 es un conjunto de imágenes, no un texto</translation>
    </message>
    <message>
        <source>%1: not a safetensors file (%2 bytes, shorter than the 8-byte header length)</source>
        <translation>%1: no es un archivo safetensors (%2 bytes, menos que los 8 bytes de la longitud de su cabecera)</translation>
    </message>
    <message>
        <source>%1: the header length (%2 bytes) is larger than the file (%3 bytes); the file is truncated or not a safetensors file</source>
        <translation>%1: la longitud de la cabecera (%2 bytes) es mayor que el archivo (%3 bytes); el archivo está truncado o no es un archivo safetensors</translation>
    </message>
    <message>
        <source>%1: the file lacks tensor "%2" (%3, %4 of %5); is the file of another model?</source>
        <translation>%1: al archivo le falta el tensor "%2" (%3, %4 de %5); ¿es el archivo de otro modelo?</translation>
    </message>
    <message>
        <source>%1: tensor "%2" of %3 has shape %4 but the model needs %5; is the file of another model?</source>
        <translation>%1: el tensor "%2" de %3 tiene la forma %4 pero el modelo necesita %5; ¿es el archivo de otro modelo?</translation>
    </message>
    <message>
        <source>%1: tensor "%2" of %3 is %4 but must be %5</source>
        <translation>%1: el tensor "%2" de %3 es %4 pero debe ser %5</translation>
    </message>
    <message>
        <source>%1 is a Trainbench weights file, not a model description: --model takes a preset or a model's JSON file (a command that reads weights takes them with --weights)</source>
        <translation>%1 es un archivo de pesos de Trainbench, no una descripción de modelo: --model admite un modelo predefinido o el archivo JSON de un modelo (un comando que lee pesos los admite con --weights)</translation>
    </message>
    <message>
        <source>%1 is binary (weights, an export?), not a model description: --model takes a preset or a model's JSON file</source>
        <translation>%1 es binario (¿pesos, una exportación?), no una descripción de modelo: --model admite un modelo predefinido o el archivo JSON de un modelo</translation>
    </message>
    <message>
        <source>%1: the header declares 0 images: the file holds none</source>
        <translation>%1: la cabecera declara 0 imágenes: el archivo no contiene ninguna</translation>
    </message>
    <message>
        <source>%1: the header declares 0 labels: the file holds none</source>
        <translation>%1: la cabecera declara 0 etiquetas: el archivo no contiene ninguna</translation>
    </message>
    <message>
        <source>%1: the header declares 0 rows in an image</source>
        <translation>%1: la cabecera declara 0 filas por imagen</translation>
    </message>
    <message>
        <source>%1: the header declares 0 columns in an image</source>
        <translation>%1: la cabecera declara 0 columnas por imagen</translation>
    </message>
    <message>
        <source>%1 is not a regular file (a device, pipe or socket): give a text file or a folder of them</source>
        <translation>%1 no es un archivo normal (es un dispositivo, una tubería o un socket): indica un archivo de texto o una carpeta de ellos</translation>
    </message>
    <message>
        <source>%1 is UTF-16 or UTF-32 (it starts with a byte-order mark), not UTF-8 or a byte text: convert it first (iconv -f UTF-16 -t UTF-8)</source>
        <translation>%1 es UTF-16 o UTF-32 (empieza con una marca de orden de bytes), no UTF-8 ni un texto de bytes: conviértelo antes (iconv -f UTF-16 -t UTF-8)</translation>
    </message>
    <message>
        <source>the text %1 holds one symbol only ("%2" repeated): there is nothing for a model to predict; use a text with more</source>
        <translation>el texto %1 contiene un solo símbolo ("%2" repetido): no hay nada que un modelo pueda predecir; usa un texto con más</translation>
    </message>
    <message>
        <source>the prompt's character "%1" at byte offset %2 (%3) is not in the model's character-level vocabulary</source>
        <translation>el carácter "%1" del inicio, en el byte %2 (%3), no está en el vocabulario de caracteres del modelo</translation>
    </message>
    <message>
        <source>the prompt's character at byte offset %1 (%2) is not in the model's character-level vocabulary</source>
        <translation>el carácter del inicio en el byte %1 (%2) no está en el vocabulario de caracteres del modelo</translation>
    </message>
    <message>
        <source>the text %1's character "%2" at byte offset %3 (%4) is not in the model's character-level vocabulary</source>
        <translation>el carácter "%2" del texto %1, en el byte %3 (%4), no está en el vocabulario de caracteres del modelo</translation>
    </message>
    <message>
        <source>the text %1's character at byte offset %2 (%3) is not in the model's character-level vocabulary</source>
        <translation>el carácter del texto %1 en el byte %2 (%3) no está en el vocabulario de caracteres del modelo</translation>
    </message>
    <message>
        <source>cannot drop the remainder: the training split holds %1 images, fewer than one batch of %2</source>
        <translation>no se puede descartar el resto: la división de entrenamiento contiene %1 imágenes, menos que un lote de %2</translation>
    </message>
    <message>
        <source>cannot drop the remainder: the training split holds %1 sequences, fewer than one batch of %2</source>
        <translation>no se puede descartar el resto: la división de entrenamiento contiene %1 secuencias, menos que un lote de %2</translation>
    </message>
    <message>
        <source>cannot drop the remainder: the test split holds %1 images, fewer than one batch of %2</source>
        <translation>no se puede descartar el resto: la división de prueba contiene %1 imágenes, menos que un lote de %2</translation>
    </message>
    <message>
        <source>cannot drop the remainder: the test split holds %1 sequences, fewer than one batch of %2</source>
        <translation>no se puede descartar el resto: la división de prueba contiene %1 secuencias, menos que un lote de %2</translation>
    </message>
    <message>
        <source>the image size multiplier is for images, and %1 is a text: leave it at 1 for a text model</source>
        <translation>el multiplicador de tamaño de imagen es para imágenes, y %1 es un texto: déjalo en 1 para un modelo de texto</translation>
    </message>
    <message>
        <source>%1: unknown member "%2" (expected %3)</source>
        <translation>%1: miembro desconocido "%2" (se esperaba %3)</translation>
    </message>
    <message>
        <source>%1: "sequence_length" must be a whole number from 1 to 100000</source>
        <translation>%1: "sequence_length" debe ser un número entero de 1 a 100000</translation>
    </message>
    <message>
        <source>%1: needs "%2"</source>
        <translation>%1: necesita "%2"</translation>
    </message>
    <message>
        <source>%1: needs an "activation"</source>
        <translation>%1: necesita una "activation"</translation>
    </message>
    <message>
        <source>%1: "%2" must be a whole number</source>
        <translation>%1: "%2" debe ser un número entero</translation>
    </message>
    <message>
        <source>%1: "%2" must be between 1 and %3 (got %4)</source>
        <translation>%1: "%2" debe estar entre 1 y %3 (es %4)</translation>
    </message>
    <message>
        <source>%1: "%2" must be a whole number from 1 to 1024 or a pair of them</source>
        <translation>%1: "%2" debe ser un número entero de 1 a 1024 o un par de ellos</translation>
    </message>
    <message>
        <source>%1: "%2" must have two values (height, width)</source>
        <translation>%1: "%2" debe tener dos valores (alto, ancho)</translation>
    </message>
    <message>
        <source>%1: "%2" must be true or false</source>
        <translation>%1: "%2" debe ser true o false</translation>
    </message>
    <message>
        <source>%1: "%2" must be a number</source>
        <translation>%1: "%2" debe ser un número</translation>
    </message>
    <message>
        <source>%1: "%2" must be in %3 (got %4)</source>
        <translation>%1: "%2" debe estar en %3 (es %4)</translation>
    </message>
    <message>
        <source>%1: "padding" must be "same" or "valid"</source>
        <translation>%1: "padding" debe ser "same" o "valid"</translation>
    </message>
    <message>
        <source>%1: "%2" must be a string</source>
        <translation>%1: "%2" debe ser una cadena</translation>
    </message>
    <message>
        <source>%1: "%2" must be a non-empty string</source>
        <translation>%1: "%2" debe ser una cadena no vacía</translation>
    </message>
    <message>
        <source>%1: unknown activation "%2" (supported: %3)</source>
        <translation>%1: activación desconocida "%2" (se admiten: %3)</translation>
    </message>
    <message>
        <source>%1: "units" must be a whole number or "classes"</source>
        <translation>%1: "units" debe ser un número entero o "classes"</translation>
    </message>
    <message>
        <source>%1: needs a flat input but receives %2; add a Flatten first</source>
        <translation>%1: necesita una entrada plana pero recibe %2; añade antes una capa Flatten</translation>
    </message>
    <message>
        <source>%1: needs an image input (H, W, C) but receives %2; add a Reshape first</source>
        <translation>%1: necesita una entrada de imagen (H, W, C) pero recibe %2; añade antes una capa Reshape</translation>
    </message>
    <message>
        <source>%1: needs an image input (H, W, C) but receives %2</source>
        <translation>%1: necesita una entrada de imagen (H, W, C) pero recibe %2</translation>
    </message>
    <message>
        <source>%1: a %2x%3 kernel does not fit its input %4 with "valid" padding</source>
        <translation>%1: un núcleo de convolución de %2x%3 no cabe en su entrada %4 con el relleno "valid"</translation>
    </message>
    <message>
        <source>%1: a %2x%3 pool does not fit its input %4</source>
        <translation>%1: una ventana de agrupación de %2x%3 no cabe en su entrada %4</translation>
    </message>
    <message>
        <source>%1: softmax is supported only as the model's final activation (it is fused with the loss)</source>
        <translation>%1: softmax solo se admite como activación final del modelo (va fusionada con la pérdida)</translation>
    </message>
    <message>
        <source>%1: receives token ids %2; a text model starts with an Embedding</source>
        <translation>%1: recibe identificadores de símbolos %2; un modelo de texto empieza con una capa Embedding</translation>
    </message>
    <message>
        <source>%1: its output %2 is empty</source>
        <translation>%1: su salida %2 está vacía</translation>
    </message>
    <message>
        <source>%1: the model must end with a softmax (a Dense with "activation": "softmax" or an Activation softmax layer); it ends with %2</source>
        <translation>%1: el modelo debe terminar con una softmax (una Dense con "activation": "softmax" o una capa Activation softmax); termina con %2</translation>
    </message>
    <message>
        <source>%1: the model's output %2 does not match the dataset's %3 classes: the final Dense layer needs %3 units</source>
        <translation>%1: la salida del modelo %2 no corresponde a las %3 clases del conjunto de datos: la capa Dense final necesita %3 unidades</translation>
    </message>
    <message numerus="yes">
        <source>%1 threads on %n core(s): the same weights as on fewer threads, but the threads take turns on the cores, so it trains no faster than cpu:%n</source>
        <translation><numerusform>%1 hilos en %n núcleo: los mismos pesos que con menos hilos, pero los hilos se turnan en el núcleo, así que no entrena más rápido que cpu:%n</numerusform><numerusform>%1 hilos en %n núcleos: los mismos pesos que con menos hilos, pero los hilos se turnan en los núcleos, así que no entrena más rápido que cpu:%n</numerusform></translation>
    </message>
    <message>
        <source>the weights hold a text model (%1) and %2 holds images: evaluate them on a text</source>
        <translation>los pesos son de un modelo de texto (%1) y %2 contiene imágenes: evalúalos con un texto</translation>
    </message>
    <message>
        <source>the weights hold a text model and %1 holds images: evaluate them on a text</source>
        <translation>los pesos son de un modelo de texto y %1 contiene imágenes: evalúalos con un texto</translation>
    </message>
    <message>
        <source>the weights hold an image model (%1) and %2 is a text: evaluate them on a folder of IDX images</source>
        <translation>los pesos son de un modelo de imágenes (%1) y %2 es un texto: evalúalos con una carpeta de imágenes IDX</translation>
    </message>
    <message>
        <source>the weights hold an image model and %1 is a text: evaluate them on a folder of IDX images</source>
        <translation>los pesos son de un modelo de imágenes y %1 es un texto: evalúalos con una carpeta de imágenes IDX</translation>
    </message>
    <message>
        <source>%1: a weights file of version %2, which this Trainbench does not read</source>
        <translation>%1: un archivo de pesos de la versión %2, que este Trainbench no lee</translation>
    </message>
    <message>
        <source>%1: weight %2 of the layers' state is not a finite number (NaN or infinity); the file is damaged</source>
        <translation>%1: el peso %2 del estado de las capas no es un número finito (NaN o infinito); el archivo está dañado</translation>
    </message>
    <message>
        <source>%1: weight %2 is not a finite number (NaN or infinity); the file is damaged</source>
        <translation>%1: el peso %2 no es un número finito (NaN o infinito); el archivo está dañado</translation>
    </message>
    <message>
        <source>%1: ONNX files are an export for other tools; Trainbench reads .tbw and .safetensors</source>
        <translation>%1: los archivos ONNX son una exportación para otras herramientas; Trainbench lee .tbw y .safetensors</translation>
    </message>
    <message>
        <source>%1: tensor "%2" (%3) has no place in %4; is the file of another model?</source>
        <translation>%1: el tensor "%2" (%3) no tiene sitio en %4; ¿es el archivo de otro modelo?</translation>
    </message>
    <message>
        <source>%1 holds no Trainbench model description (written by another program?): say which model its tensors belong to (--model NAME|FILE; in the window, the model chosen in Setup)</source>
        <translation>%1 no contiene ninguna descripción de modelo de Trainbench (¿lo escribió otro programa?): indica a qué modelo pertenecen sus tensores (--model NOMBRE|ARCHIVO; en la ventana, el modelo elegido en Configuración)</translation>
    </message>
    <message>
        <source>these weights are a text model's (its inputs are %1 symbol ids): it writes text rather than recognise pictures; use trainbench-cli generate, or the window's Write page</source>
        <translation>estos pesos son de un modelo de texto (sus entradas son %1 identificadores de símbolos): escribe texto en lugar de reconocer imágenes; usa trainbench-cli generate, o la página Escribir de la ventana</translation>
    </message>
    <message>
        <source>the model takes %1 inputs, not one-channel images</source>
        <translation>el modelo toma entradas %1, no imágenes de un canal</translation>
    </message>
    <message>
        <source>cannot read %1: it is a folder, not a file</source>
        <translation>no se puede leer %1: es una carpeta, no un archivo</translation>
    </message>
    <message>
        <source>cannot read %1: not a regular file</source>
        <translation>no se puede leer %1: no es un archivo normal</translation>
    </message>
    <message>
        <source>cannot open %1: %2</source>
        <translation>no se puede abrir %1: %2</translation>
    </message>
    <message>
        <source>cannot read the runs folder %1: %2</source>
        <translation>no se puede leer la carpeta de entrenamientos %1: %2</translation>
    </message>
    <message>
        <source>cannot read all of the runs folder %1: %2</source>
        <translation>no se puede leer toda la carpeta de entrenamientos %1: %2</translation>
    </message>
    <message>
        <source>cannot create the runs folder %1: %2</source>
        <translation>no se puede crear la carpeta de entrenamientos %1: %2</translation>
    </message>
    <message>
        <source>cannot create the run folder %1: %2</source>
        <translation>no se puede crear la carpeta del entrenamiento %1: %2</translation>
    </message>
    <message>
        <source>cannot create a run folder in %1: too many runs started this second</source>
        <translation>no se puede crear una carpeta de entrenamiento en %1: se iniciaron demasiados entrenamientos en este segundo</translation>
    </message>
    <message>
        <source>%1 was made on %2 (%3), not on %4 (%5)</source>
        <translation>%1 se hizo con %2 (%3), no con %4 (%5)</translation>
    </message>
    <message>
        <source>%1 train and %2 test images of %3x%4 in %5 classes</source>
        <translation>%1 imágenes de entrenamiento y %2 de prueba de %3x%4 en %5 clases</translation>
    </message>
    <message>
        <source>%1 train and %2 validation sequences of %3 symbols, a vocabulary of %4</source>
        <translation>%1 secuencias de entrenamiento y %2 de validación de %3 símbolos, un vocabulario de %4</translation>
    </message>
    <message>
        <source>%1 is being trained by process %2 on %3; wait for it to end, or stop it first</source>
        <translation>el proceso %2 de %3 está entrenando %1; espera a que termine, o detenlo antes</translation>
    </message>
    <message>
        <source>%1 is being trained by process %2; wait for it to end, or stop it first</source>
        <translation>el proceso %2 está entrenando %1; espera a que termine, o detenlo antes</translation>
    </message>
    <message>
        <source>%1 is being trained by another process; wait for it to end, or stop it first</source>
        <translation>otro proceso está entrenando %1; espera a que termine, o detenlo antes</translation>
    </message>
    <message>
        <source>%1 is being trained by this process already; wait for it to end, or stop it first</source>
        <translation>este proceso ya está entrenando %1; espera a que termine, o detenlo antes</translation>
    </message>
    <message>
        <source>cannot lock the run folder %1: %2</source>
        <translation>no se puede bloquear la carpeta del entrenamiento %1: %2</translation>
    </message>
    <message>
        <source>%1 in %2 cannot be opened: %3</source>
        <translation>%1 de %2 no se puede abrir: %3</translation>
    </message>
    <message>
        <source>%1 in %2 is a folder, not an IDX file</source>
        <translation>%1 de %2 es una carpeta, no un archivo IDX</translation>
    </message>
    <message>
        <source>%1 in %2 is not a regular file</source>
        <translation>%1 de %2 no es un archivo normal</translation>
    </message>
    <message>
        <source>layer %1 (%2) works on sequences, which the OpenCL device does not run yet: train text models on the CPU</source>
        <translation>la capa %1 (%2) trabaja con secuencias, que el dispositivo OpenCL aún no ejecuta: entrena los modelos de texto en la CPU</translation>
    </message>
    <message>
        <source>layer %1 (%2) cannot run on the OpenCL device: it has no OpenCL kernels; train it on the CPU</source>
        <translation>la capa %1 (%2) no puede ejecutarse en el dispositivo OpenCL: no tiene rutinas OpenCL; entrénala en la CPU</translation>
    </message>
    <message>
        <source>a batch of %1 images of %2x%3 needs about %4 on %5 (%6), more than its %7; use a smaller batch or size multiplier</source>
        <translation>un lote de %1 imágenes de %2x%3 necesita unos %4 en %5 (%6), más que sus %7; usa un lote o un multiplicador de tamaño menor</translation>
    </message>
    <message>
        <source>a batch of %1 holds %2 values in one tensor, more than the OpenCL kernels index (2^31); use a smaller batch</source>
        <translation>un lote de %1 tiene %2 valores en un tensor, más de los que indexan las rutinas OpenCL (2^31); usa un lote menor</translation>
    </message>
    <message>
        <source>out of device memory (%1); use a smaller batch or size multiplier</source>
        <translation>sin memoria en el dispositivo (%1); usa un lote o un multiplicador de tamaño menor</translation>
    </message>
    <message>
        <source>out of device memory: %1 needs %2 more, %3 of %4 are in use%5</source>
        <translation>sin memoria en el dispositivo: hacen falta %2 más para %1, y hay %3 de %4 en uso%5</translation>
    </message>
    <message>
        <source>out of device memory: %1 needs one buffer of %2, the device's largest is %3</source>
        <translation>sin memoria en el dispositivo: hace falta un búfer de %2 para %1, y el mayor del dispositivo es de %3</translation>
    </message>
    <message>
        <source>the weights</source>
        <translation>los pesos</translation>
    </message>
    <message>
        <source>the updated weights</source>
        <translation>los pesos actualizados</translation>
    </message>
    <message>
        <source>the gradient</source>
        <translation>el gradiente</translation>
    </message>
    <message>
        <source>the optimizer's state</source>
        <translation>el estado del optimizador</translation>
    </message>
    <message>
        <source>the optimizer's updated state</source>
        <translation>el estado actualizado del optimizador</translation>
    </message>
    <message>
        <source>the activations</source>
        <translation>las activaciones</translation>
    </message>
    <message>
        <source>the activation gradients</source>
        <translation>los gradientes de las activaciones</translation>
    </message>
    <message>
        <source>the convolution columns</source>
        <translation>las columnas de la convolución</translation>
    </message>
    <message>
        <source>the input batch</source>
        <translation>el lote de entrada</translation>
    </message>
    <message>
        <source>the OpenCL device was lost (%1)</source>
        <translation>se perdió el dispositivo OpenCL (%1)</translation>
    </message>
    <message>
        <source>OpenCL call failed: %1</source>
        <translation>falló una llamada de OpenCL: %1</translation>
    </message>
    <message>
        <source>the OpenCL kernels did not build on %1 (%2): %3</source>
        <translation>las rutinas OpenCL no se compilaron en %1 (%2): %3</translation>
    </message>
    <message>
        <source>no OpenCL platform (no driver is registered in /etc/OpenCL/vendors; on Debian install pocl-opencl-icd for the CPU, or the GPU vendor's OpenCL driver)</source>
        <translation>ninguna plataforma OpenCL (no hay ningún controlador registrado en /etc/OpenCL/vendors; en Debian instala pocl-opencl-icd para la CPU, o el controlador OpenCL del fabricante de la GPU)</translation>
    </message>
    <message>
        <source>built without OpenCL (%1)</source>
        <translation>compilado sin OpenCL (%1)</translation>
    </message>
    <message>
        <source>configured with -DTRAINBENCH_OPENCL=OFF</source>
        <translation>configurado con -DTRAINBENCH_OPENCL=OFF</translation>
    </message>
    <message>
        <source>the OpenCL headers or ICD loader were not found at build time: install ocl-icd-opencl-dev and opencl-c-headers, then rebuild</source>
        <translation>no se encontraron las cabeceras de OpenCL ni el cargador ICD al compilar: instala ocl-icd-opencl-dev y opencl-c-headers, y vuelve a compilar</translation>
    </message>
    <message>
        <source>CLBlast was not found at build time: install libclblast-dev, then rebuild</source>
        <translation>no se encontró CLBlast al compilar: instala libclblast-dev y vuelve a compilar</translation>
    </message>
    <message>
        <source>the OpenCL loader failed: %1</source>
        <translation>falló el cargador de OpenCL: %1</translation>
    </message>
    <message>
        <source>the OpenCL platforms list no device</source>
        <translation>las plataformas OpenCL no tienen ningún dispositivo</translation>
    </message>
    <message>
        <source>no OpenCL device available: %1</source>
        <translation>ningún dispositivo OpenCL disponible: %1</translation>
    </message>
    <message>
        <source>%1 (%2) %3</source>
        <translation>%1 (%2) %3</translation>
    </message>
    <message>
        <source>is not available (in use by another program or switched off)</source>
        <translation>no está disponible (lo usa otro programa o está apagado)</translation>
    </message>
    <message>
        <source>has no OpenCL C compiler</source>
        <translation>no tiene compilador de OpenCL C</translation>
    </message>
    <message>
        <source>supports %1; the backend needs OpenCL 1.2</source>
        <translation>admite %1; el motor necesita OpenCL 1.2</translation>
    </message>
    <message>
        <source>runs work-groups of fewer than 256 items; the backend's reductions need 256</source>
        <translation>ejecuta grupos de trabajo de menos de 256 elementos; las reducciones del motor necesitan 256</translation>
    </message>
    <message>
        <source>the text gives a label at every step but the model predicts one per sequence: its last LSTM needs "return_sequences": true</source>
        <translation>el texto da una etiqueta en cada paso pero el modelo predice una por secuencia: su última LSTM necesita "return_sequences": true</translation>
    </message>
    <message>
        <source>the model predicts a label at every step but the dataset has one per sample</source>
        <translation>el modelo predice una etiqueta en cada paso pero el conjunto de datos tiene una por muestra</translation>
    </message>
    <message>
        <source>unknown sweep '%1': use batch=32,64,128 or size=1,2,3</source>
        <translation>barrido desconocido '%1': usa batch=32,64,128 o size=1,2,3</translation>
    </message>
    <message>
        <source>bad sweep value '%1' in '%2': expected 1..%3</source>
        <translation>valor de barrido no válido '%1' en '%2': se esperaba de 1 a %3</translation>
    </message>
    <message>
        <source>the sweep '%1' lists no values</source>
        <translation>el barrido '%1' no indica ningún valor</translation>
    </message>
    <message>
        <source>%1 is a symbolic link, not a run folder: it was not deleted</source>
        <translation>%1 es un enlace simbólico, no la carpeta de un entrenamiento: no se borró</translation>
    </message>
    <message>
        <source>%1 is not a run folder</source>
        <translation>%1 no es la carpeta de un entrenamiento</translation>
    </message>
    <message>
        <source>%1 holds the folder %2: it does not look like a run folder and was not deleted</source>
        <translation>%1 contiene la carpeta %2: no parece la carpeta de un entrenamiento y no se borró</translation>
    </message>
    <message>
        <source>%1 holds %2, which is not a run's file: nothing was deleted (move it out of the folder first)</source>
        <translation>%1 contiene %2, que no es un archivo de un entrenamiento: no se borró nada (sácalo antes de la carpeta)</translation>
    </message>
    <message>
        <source>cannot delete %1: %2</source>
        <translation>no se puede borrar %1: %2</translation>
    </message>
    <message>
        <source>cannot read the text file %1</source>
        <translation>no se puede leer el archivo de texto %1</translation>
    </message>
    <message>
        <source>classes.txt names more than 256 classes; labels are single bytes, so 256 is the most</source>
        <translation>classes.txt nombra más de 256 clases; las etiquetas son de un byte, así que 256 es el máximo</translation>
    </message>
    <message>
        <source>cannot read %1: %2</source>
        <translation>no se puede leer %1: %2</translation>
    </message>
    <message>
        <source>%1, layer %2 (%3)</source>
        <translation>%1, capa %2 (%3)</translation>
    </message>
    <message>
        <source>%1, layer %2</source>
        <translation>%1, capa %2</translation>
    </message>
    <message>
        <source>layer %1 (%2)</source>
        <translation>capa %1 (%2)</translation>
    </message>
    <message>
        <source>preset %1</source>
        <translation>modelo predefinido %1</translation>
    </message>
    <message>
        <source>%1 (its model description)</source>
        <translation>%1 (su descripción del modelo)</translation>
    </message>
    <message>
        <source>%1: JSON error at line %2, column %3: %4</source>
        <translation>%1: error de JSON en la línea %2, columna %3: %4</translation>
    </message>
    <message>
        <source>duplicate member "%1"</source>
        <translation>miembro duplicado "%1"</translation>
    </message>
    <message>
        <source>nesting deeper than %1 levels</source>
        <translation>anidamiento de más de %1 niveles</translation>
    </message>
    <message>
        <source>the number %1 is out of range</source>
        <translation>el número %1 está fuera de rango</translation>
    </message>
    <message>
        <source>%1: needs "input_dim" (the vocabulary size) and "output_dim"</source>
        <translation>%1: necesita "input_dim" (el tamaño del vocabulario) y "output_dim"</translation>
    </message>
    <message>
        <source>%1 diverged before its first checkpoint (its loss or weights became NaN or infinite): nothing to resume; train it again with a lower learning rate</source>
        <translation>%1 divergió antes de su primer punto de control (su pérdida o sus pesos se volvieron NaN o infinitos): no hay nada que reanudar; vuelve a entrenarlo con una tasa de aprendizaje menor</translation>
    </message>
    <message>
        <source>%1 is a run folder: its trained weights are %2</source>
        <translation>%1 es la carpeta de un entrenamiento: sus pesos entrenados están en %2</translation>
    </message>
    <message>
        <source>%1 is a run folder without weights.tbw: its run has not finished (resume it, or give its checkpoint.tbw)</source>
        <translation>%1 es la carpeta de un entrenamiento sin weights.tbw: el entrenamiento no ha terminado (reanúdalo, o usa su checkpoint.tbw)</translation>
    </message>
    <message>
        <source>a validation split of %1 leaves none of the %2 training images to train on</source>
        <translation>una fracción de validación de %1 no deja ninguna de las %2 imágenes de entrenamiento para entrenar</translation>
    </message>
    <message>
        <source>a validation split of %1 leaves none of the %2 training images to validate on</source>
        <translation>una fracción de validación de %1 no deja ninguna de las %2 imágenes de entrenamiento para validar</translation>
    </message>
    <message>
        <source>a validation split of %1 leaves none of the %2 training sequences to train on</source>
        <translation>una fracción de validación de %1 no deja ninguna de las %2 secuencias de entrenamiento para entrenar</translation>
    </message>
    <message>
        <source>a validation split of %1 leaves none of the %2 training sequences to validate on</source>
        <translation>una fracción de validación de %1 no deja ninguna de las %2 secuencias de entrenamiento para validar</translation>
    </message>
    <message>
        <source>cannot read the dataset folder %1: %2</source>
        <translation>no se puede leer la carpeta del conjunto de datos %1: %2</translation>
    </message>
    <message>
        <source>the run has no stored test evaluation (evaluation.json): it did not complete, or was made by an older Trainbench</source>
        <translation>el entrenamiento no tiene una evaluación de prueba guardada (evaluation.json): no terminó, o lo hizo un Trainbench anterior</translation>
    </message>
    <message>
        <source>this CPU has no %1 (it supports %2)</source>
        <translation>esta CPU no tiene %1 (admite %2)</translation>
    </message>
    <message>
        <source>this CPU has no %1</source>
        <translation>esta CPU no tiene %1</translation>
    </message>
    <message>
        <source>this CPU has no AMX-BF16 (Intel Sapphire Rapids and later)</source>
        <translation>esta CPU no tiene AMX-BF16 (Intel Sapphire Rapids y posteriores)</translation>
    </message>
    <message>
        <source>there is no OpenCL device %1 (this machine has only opencl:0)</source>
        <translation>no hay dispositivo OpenCL %1 (esta máquina solo tiene opencl:0)</translation>
    </message>
    <message>
        <source>there is no OpenCL device %1 (this machine has %2: opencl:0 .. %3)</source>
        <translation>no hay dispositivo OpenCL %1 (esta máquina tiene %2: opencl:0 .. %3)</translation>
    </message>
    <message>
        <source>own %1 AMX-BF16 tile kernel (bf16 inputs, FP32 sums)</source>
        <translation>kernel de teselas AMX-BF16 propio de %1 (entradas bf16, sumas FP32)</translation>
    </message>
    <message>
        <source>%1's weights differ from the SHA-256 its metadata records (%2…, the weights %3…): the file was changed after Trainbench wrote it, by an edit or damage</source>
        <translation>los pesos de %1 difieren del SHA-256 que registran sus metadatos (%2…, los pesos %3…): el archivo cambió después de que Trainbench lo escribiera, por una edición o un daño</translation>
    </message>
    <message numerus="yes">
        <source>step decay ×%1 every %n epoch(s)</source>
        <translation><numerusform>caída escalonada ×%1 cada época</numerusform><numerusform>caída escalonada ×%1 cada %n épocas</numerusform></translation>
    </message>
    <message>
        <source>exponential decay %1 per %2 steps</source>
        <translation>caída exponencial %1 cada %2 pasos</translation>
    </message>
    <message>
        <source>cosine decay to %1× after %2 warm-up steps</source>
        <translation>caída coseno hasta %1× tras %2 pasos de calentamiento</translation>
    </message>
    <message numerus="yes">
        <source>reduce on plateau of %1: ×%2 after %n epoch(s), minimum %3</source>
        <translation><numerusform>reducir en meseta de %1: ×%2 tras %n época, mínimo %3</numerusform><numerusform>reducir en meseta de %1: ×%2 tras %n épocas, mínimo %3</numerusform></translation>
    </message>
    <message>
        <source>constant</source>
        <translation>constante</translation>
    </message>
    <message>
        <source>off</source>
        <translation>desactivada</translation>
    </message>
    <message>
        <source>%1, patience %2, min_delta %3</source>
        <translation>%1, paciencia %2, min_delta %3</translation>
    </message>
    <message>
        <source>%1, restoring the best weights</source>
        <translation>%1, restaurando los mejores pesos</translation>
    </message>
    <message>
        <source>the model reads sequences of %1 symbols but %2 was cut into sequences of %3</source>
        <translation>el modelo lee secuencias de %1 símbolos pero %2 se cortó en secuencias de %3</translation>
    </message>
    <message>
        <source>the model has a vocabulary of %1 symbols but the vocabulary of %2 has %3</source>
        <translation>el modelo tiene un vocabulario de %1 símbolos pero el vocabulario de %2 tiene %3</translation>
    </message>
    <message>
        <source>%1: its model has %2 symbols (tensor "%3" is %4), and the text read as bytes gives 256: a character-level model needs the vocabulary of characters (--vocabulary characters; in the window, Vocabulary in Setup) and the text it learned from</source>
        <translation>%1: su modelo tiene %2 símbolos (el tensor "%3" es %4), y el texto leído como bytes da 256: un modelo de caracteres necesita el vocabulario de caracteres (--vocabulary characters; en la ventana, Vocabulario en Configuración) y el texto del que aprendió</translation>
    </message>
    <message>
        <source>%1: its model has %2 symbols (tensor "%3" is %4), and the characters of the text give %5: it learned from another text, or from bytes (--vocabulary bytes)</source>
        <translation>%1: su modelo tiene %2 símbolos (el tensor "%3" es %4), y los caracteres del texto dan %5: aprendió de otro texto, o de bytes (--vocabulary bytes)</translation>
    </message>
    <message>
        <source>%1: the model has %2 weights (%3), more than can be trained in %4</source>
        <translation>%1: el modelo tiene %2 pesos (%3), más de los que se pueden entrenar con %4</translation>
    </message>
    <message>
        <source>%1: the layer has %2 weights (%3), more than can be trained in %4</source>
        <translation>%1: la capa tiene %2 pesos (%3), más de los que se pueden entrenar con %4</translation>
    </message>
    <message>
        <source>%1: a Dense layer of %2 units on %3 inputs has %4 weights (%5), more than can be trained in %6</source>
        <translation>%1: una capa Dense de %2 unidades sobre %3 entradas tiene %4 pesos (%5), más de los que se pueden entrenar con %6</translation>
    </message>
    <message>
        <source>a batch of %1 images of %2x%3 needs about %4 for training, more than %5; use a smaller batch or size multiplier</source>
        <translation>un lote de %1 imágenes de %2x%3 necesita unos %4 para entrenar, más que %5; usa un lote o un multiplicador de tamaño menor</translation>
    </message>
    <message>
        <source>a batch of %1 images of %2x%3 needs about %4 for training, more than the %5 free now (of %6); close other programs, or use a smaller batch or size multiplier</source>
        <translation>un lote de %1 imágenes de %2x%3 necesita unos %4 para entrenar, más que los %5 libres ahora (de %6); cierra otros programas, o usa un lote o un multiplicador de tamaño menor</translation>
    </message>
    <message>
        <source>a batch of %1 sequences of %2 symbols needs about %3 for training, more than %4; use a smaller batch</source>
        <translation>un lote de %1 secuencias de %2 símbolos necesita unos %3 para entrenar, más que %4; usa un lote menor</translation>
    </message>
    <message>
        <source>a batch of %1 sequences of %2 symbols needs about %3 for training, more than the %4 free now (of %5); close other programs, or use a smaller batch</source>
        <translation>un lote de %1 secuencias de %2 símbolos necesita unos %3 para entrenar, más que los %4 libres ahora (de %5); cierra otros programas, o usa un lote menor</translation>
    </message>
    <message>
        <source>the text %1 (%2) needs about %3 of memory to train on, more than %4; use a part of it</source>
        <translation>el texto %1 (%2) necesita unos %3 de memoria para entrenar, más que %4; usa una parte de él</translation>
    </message>
    <message>
        <source>cannot read %1: %2 is more than fits in %3</source>
        <translation>no se puede leer %1: %2 es más de lo que cabe en %3</translation>
    </message>
    <message>
        <source>this machine's %1 of memory</source>
        <translation>los %1 de memoria de esta máquina</translation>
    </message>
    <message>
        <source>the %1 memory limit of this process's control group</source>
        <translation>los %1 que permite el grupo de control (cgroup) de este proceso</translation>
    </message>
    <message>
        <source>%1 was made on another dataset than %2: the images differ, although the counts, sizes and labels are the same</source>
        <translation>%1 se hizo con otro conjunto de datos que %2: las imágenes difieren, aunque los recuentos, tamaños y etiquetas coinciden</translation>
    </message>
    <message>
        <source>%1 was made on another dataset than %2: the text differs, although the counts, sizes and labels are the same</source>
        <translation>%1 se hizo con otro conjunto de datos que %2: el texto difiere, aunque los recuentos, tamaños y etiquetas coinciden</translation>
    </message>
    <message>
        <source>%1 was written before checkpoints kept a hash of their dataset's images: only the counts, sizes and labels of %2 were checked, not the images themselves</source>
        <translation>%1 se escribió antes de que los puntos de control guardaran un hash de las imágenes de su conjunto de datos: solo se comprobaron los recuentos, tamaños y etiquetas de %2, no las imágenes mismas</translation>
    </message>
    <message>
        <source>%1 was written before checkpoints kept a hash of their dataset's text: only the counts, sizes and labels of %2 were checked, not the text itself</source>
        <translation>%1 se escribió antes de que los puntos de control guardaran un hash del texto de su conjunto de datos: solo se comprobaron los recuentos, tamaños y etiquetas de %2, no el texto mismo</translation>
    </message>
    <message>
        <source>%1: its per-batch curve cannot be read (%2): the curve starts at the resumed step</source>
        <translation>%1: su curva por lote no se puede leer (%2): la curva empieza donde se reanuda</translation>
    </message>
    <message>
        <source>%1 diverged (its loss or weights became NaN or infinite): resumed, its checkpoint would repeat the same steps with the same settings and diverge again; train it again with a lower learning rate</source>
        <translation>%1 divergió (su pérdida o sus pesos se volvieron NaN o infinitos): al reanudarlo, su punto de control repetiría los mismos pasos con los mismos ajustes y volvería a divergir; vuelve a entrenar desde el principio con una tasa de aprendizaje menor</translation>
    </message>
    <message>
        <source>%1: is truncated: its gzip data ends before the compressed stream does (a download or copy cut short?)</source>
        <translation>%1: está truncado: sus datos gzip se acaban antes que el flujo comprimido (¿una descarga o copia interrumpida?)</translation>
    </message>
    <message>
        <source>%1 is complete (it ended %2): nothing to resume. Its weights are %3 (evaluate, predict and export take them)</source>
        <translation>%1 está completo (terminó el %2): no hay nada que reanudar. Sus pesos están en %3 (los usan evaluate, predict y export)</translation>
    </message>
    <message>
        <source>%1 is complete: nothing to resume. Its weights are %2 (evaluate, predict and export take them)</source>
        <translation>%1 está completo: no hay nada que reanudar. Sus pesos están en %2 (los usan evaluate, predict y export)</translation>
    </message>
    <message>
        <source>%1: the model's output %2 gives %3 symbols, and the vocabulary has %4: the final Dense layer needs %4 units ("units": "classes" sizes it to the vocabulary); a model of 256 outputs reads bytes: train it with the byte-level vocabulary</source>
        <translation>%1: la salida del modelo %2 da %3 símbolos, y el vocabulario tiene %4: la capa Dense final necesita %4 unidades ("units": "classes" la ajusta al vocabulario); un modelo de 256 salidas lee bytes: entrénalo con el vocabulario de bytes</translation>
    </message>
    <message>
        <source>%1: the model's output %2 gives %3 symbols, and the vocabulary has %4: the final Dense layer needs %4 units ("units": "classes" sizes it to the vocabulary)</source>
        <translation>%1: la salida del modelo %2 da %3 símbolos, y el vocabulario tiene %4: la capa Dense final necesita %4 unidades ("units": "classes" la ajusta al vocabulario)</translation>
    </message>
    <message>
        <source>the text %1 holds %2 bytes, shorter than one sequence of %3 on each side of the training/validation split (at least %4 needed); use a longer text (the model reads sequences of %3)</source>
        <translation>el texto %1 contiene %2 bytes, menos que una secuencia de %3 a cada lado de la división entre entrenamiento y validación (hacen falta al menos %4); usa un texto más largo (el modelo lee secuencias de %3)</translation>
    </message>
    <message>
        <source>the text %1 holds %2 characters, shorter than one sequence of %3 on each side of the training/validation split (at least %4 needed); use a longer text (the model reads sequences of %3)</source>
        <translation>el texto %1 contiene %2 caracteres, menos que una secuencia de %3 a cada lado de la división entre entrenamiento y validación (hacen falta al menos %4); usa un texto más largo (el modelo lee secuencias de %3)</translation>
    </message>
    <message>
        <source>%1 was made on another dataset than %2: the text differs, although its sequence counts and vocabulary size are the same</source>
        <translation>%1 se hizo con otro conjunto de datos que %2: el texto difiere, aunque sus recuentos de secuencias y el tamaño de su vocabulario coinciden</translation>
    </message>
    <message>
        <source>a sweep of sizes enlarges images, and %1 is a text: sweep the batch for a text model</source>
        <translation>un barrido de tamaños agranda imágenes, y %1 es un texto: barre el lote para un modelo de texto</translation>
    </message>
    <message>
        <source>no CUDA backend: GPUs train through OpenCL</source>
        <translation>sin motor CUDA: las GPU entrenan con OpenCL</translation>
    </message>
    <message>
        <source>%1 is not a GPU: it runs the GPU's OpenCL kernels on this CPU's cores, many times slower than the CPU devices (cpu:N)</source>
        <translation>%1 no es una GPU: ejecuta los kernels OpenCL de la GPU en los núcleos de esta CPU, muchas veces más despacio que los dispositivos CPU (cpu:N)</translation>
    </message>
</context>
<context>
    <name>PictureReader</name>
    <message>
        <source>%1 is %2×%3 pixels, too large to predict on (at most %4 pixels a side and %5 megapixels); scale it down first.</source>
        <translation>%1 mide %2×%3 píxeles, demasiado para predecir (como mucho %4 píxeles por lado y %5 megapíxeles); redúcela antes.</translation>
    </message>
    <message>
        <source>%1 does not exist.</source>
        <translation>%1 no existe.</translation>
    </message>
    <message>
        <source>%1 is a folder, not a picture.</source>
        <translation>%1 es una carpeta, no una imagen.</translation>
    </message>
    <message>
        <source>%1 is empty (0 bytes).</source>
        <translation>%1 está vacío (0 bytes).</translation>
    </message>
    <message>
        <source>%1 is not a picture Trainbench can read (%2).</source>
        <translation>%1 no es una imagen que Trainbench sepa leer (%2).</translation>
    </message>
    <message>
        <source>%1 has no pixels (%2×%3).</source>
        <translation>%1 no tiene píxeles (%2×%3).</translation>
    </message>
    <message>
        <source>%1 is animated (%2 frames): predicting on its first frame.</source>
        <translation>%1 es animada (%2 fotogramas): se predice sobre el primero.</translation>
    </message>
    <message>
        <source>%1 could not be read: %2.</source>
        <translation>No se pudo leer %1: %2.</translation>
    </message>
    <message>
        <source>%1 has no pixels.</source>
        <translation>%1 no tiene píxeles.</translation>
    </message>
    <message>
        <source>%1 is damaged: its picture data cannot be decoded (%2).</source>
        <translation>%1 está dañado: sus datos de imagen no se pueden decodificar (%2).</translation>
    </message>
</context>
<context>
    <name>QCommandLineParser</name>
    <message>
        <source>Displays help on commandline options.</source>
        <translation>Muestra la ayuda sobre las opciones de la línea de órdenes.</translation>
    </message>
    <message>
        <source>Displays help including Qt specific options.</source>
        <translation>Muestra la ayuda, con las opciones propias de Qt.</translation>
    </message>
</context>
<context>
    <name>RunReport</name>
    <message>
        <source>running</source>
        <translation>en curso</translation>
    </message>
    <message>
        <source>completed</source>
        <translation>completado</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>detenido</translation>
    </message>
    <message>
        <source>diverged</source>
        <translation>divergió</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fallido</translation>
    </message>
    <message>
        <source>interrupted</source>
        <translation>interrumpido</translation>
    </message>
    <message>
        <source>BatchNorm statistics recomputed over %1 training batches after training</source>
        <translation>estadísticas de BatchNorm recalculadas con %1 lotes de entrenamiento tras el entrenamiento</translation>
    </message>
    <message>
        <source>Epoch</source>
        <translation>Época</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>Pérdida</translation>
    </message>
    <message>
        <source>Accuracy</source>
        <translation>Exactitud</translation>
    </message>
    <message>
        <source>Val. loss</source>
        <translation>Pérdida val.</translation>
    </message>
    <message>
        <source>Val. accuracy</source>
        <translation>Exactitud val.</translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation>Tasa de aprendizaje</translation>
    </message>
    <message>
        <source>Seconds</source>
        <translation>Segundos</translation>
    </message>
    <message>
        <source>True symbol</source>
        <translation>Símbolo verdadero</translation>
    </message>
    <message>
        <source>Predicted</source>
        <translation>Predicho</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>Cantidad</translation>
    </message>
    <message>
        <source>Share of the true symbol's predictions</source>
        <translation>Parte de las predicciones del símbolo verdadero</translation>
    </message>
    <message>
        <source>Trainbench run %1</source>
        <translation>Entrenamiento %1 de Trainbench</translation>
    </message>
    <message>
        <source>%1 on %2, %3 — %4</source>
        <translation>%1 con %2, %3 — %4</translation>
    </message>
    <message>
        <source>%1 on %2, %3 — %4, %5 UTC</source>
        <translation>%1 con %2, %3 — %4, %5 UTC</translation>
    </message>
    <message>
        <source>Curves</source>
        <translation>Curvas</translation>
    </message>
    <message>
        <source>Epochs</source>
        <translation>Épocas</translation>
    </message>
    <message>
        <source>Configuration</source>
        <translation>Configuración</translation>
    </message>
    <message>
        <source>Hardware</source>
        <translation>Hardware</translation>
    </message>
    <message>
        <source>Not recorded (a run of an older Trainbench).</source>
        <translation>No registrado (un entrenamiento de un Trainbench anterior).</translation>
    </message>
    <message>
        <source>Weights</source>
        <translation>Pesos</translation>
    </message>
    <message>
        <source>SHA-256 of weights.tbw</source>
        <translation>SHA-256 de weights.tbw</translation>
    </message>
    <message>
        <source>(weights.tbw changed since the run ended: its SHA-256 then was %1)</source>
        <translation>(weights.tbw cambió después de terminar el entrenamiento: su SHA-256 entonces era %1)</translation>
    </message>
    <message>
        <source>Confusion matrix</source>
        <translation>Matriz de confusión</translation>
    </message>
    <message>
        <source>Mistakes</source>
        <translation>Errores</translation>
    </message>
    <message>
        <source>Misclassified test images</source>
        <translation>Imágenes de prueba mal clasificadas</translation>
    </message>
    <message>
        <source>Made by Trainbench from %1.</source>
        <translation>Hecho por Trainbench a partir de %1.</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modelo</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>Parámetros</translation>
    </message>
    <message>
        <source>Dataset</source>
        <translation>Conjunto de datos</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>Dispositivo</translation>
    </message>
    <message>
        <source>Earlier devices</source>
        <translation>Dispositivos anteriores</translation>
    </message>
    <message>
        <source>Kernels</source>
        <translation>Kernels</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>Precisión</translation>
    </message>
    <message>
        <source>Batch size</source>
        <translation>Tamaño del lote</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>Optimizador</translation>
    </message>
    <message>
        <source>Momentum</source>
        <translation>Momento</translation>
    </message>
    <message>
        <source>Nesterov</source>
        <translation>Nesterov</translation>
    </message>
    <message>
        <source>Max batches</source>
        <translation>Máximo de lotes</translation>
    </message>
    <message>
        <source>Image size multiplier</source>
        <translation>Multiplicador del tamaño de imagen</translation>
    </message>
    <message>
        <source>Drop remainder batch</source>
        <translation>Descartar el lote sobrante</translation>
    </message>
    <message>
        <source>Schedule</source>
        <translation>Programa de la tasa de aprendizaje</translation>
    </message>
    <message>
        <source>Early stopping</source>
        <translation>Parada temprana</translation>
    </message>
    <message>
        <source>Validation</source>
        <translation>Validación</translation>
    </message>
    <message>
        <source>Precise BN</source>
        <translation>BN precisa</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>Semilla</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>Inicio</translation>
    </message>
    <message>
        <source>Ended</source>
        <translation>Fin</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Estado</translation>
    </message>
    <message>
        <source>Dataset sequences</source>
        <translation>Secuencias del conjunto de datos</translation>
    </message>
    <message>
        <source>Dataset images</source>
        <translation>Imágenes del conjunto de datos</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>Logical cores</source>
        <translation>Núcleos lógicos</translation>
    </message>
    <message>
        <source>SIMD</source>
        <translation>SIMD</translation>
    </message>
    <message>
        <source>Kernel ISA</source>
        <translation>ISA de los kernels</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>Memoria</translation>
    </message>
    <message>
        <source>last %1% of train</source>
        <translation>el último %1 % del entrenamiento</translation>
    </message>
    <message>
        <source>%1 train, %2 test, %3x%4, %5 classes</source>
        <translation>%1 de entrenamiento, %2 de prueba, %3x%4, %5 clases</translation>
    </message>
    <message>
        <source>%1 train, %2 held out (the text's last part), of %3 symbols, a vocabulary of %4</source>
        <translation>%1 de entrenamiento, %2 reservadas (la última parte del texto), de %3 símbolos, un vocabulario de %4</translation>
    </message>
    <message>
        <source>true</source>
        <translation>sí</translation>
    </message>
    <message>
        <source>false</source>
        <translation>no</translation>
    </message>
    <message>
        <source>test set</source>
        <translation>el conjunto de prueba</translation>
    </message>
    <message>
        <source>the text's last part, held out</source>
        <translation>la última parte del texto, reservada</translation>
    </message>
    <message>
        <source>bf16 (bfloat16 products, FP32 accumulation)</source>
        <translation>bf16 (productos en bfloat16, acumulación en FP32)</translation>
    </message>
    <message>
        <source>(to epoch %1, step %2)</source>
        <translation>(hasta la época %1, paso %2)</translation>
    </message>
    <message>
        <source>(to the end of epoch %1)</source>
        <translation>(hasta el final de la época %1)</translation>
    </message>
    <message>
        <source>the run folder holds no weights.tbw (the run did not complete)</source>
        <translation>la carpeta del entrenamiento no contiene weights.tbw (el entrenamiento no terminó)</translation>
    </message>
    <message>
        <source>no data</source>
        <translation>sin datos</translation>
    </message>
    <message>
        <source>epoch</source>
        <translation>época</translation>
    </message>
    <message>
        <source>%1, epoch %2: %3</source>
        <translation>%1, época %2: %3</translation>
    </message>
    <message>
        <source>train</source>
        <translation>entrenamiento</translation>
    </message>
    <message>
        <source>validation</source>
        <translation>validación</translation>
    </message>
    <message>
        <source>learning rate</source>
        <translation>tasa de aprendizaje</translation>
    </message>
    <message>
        <source>Epoch time (s)</source>
        <translation>Tiempo por época (s)</translation>
    </message>
    <message>
        <source>seconds</source>
        <translation>segundos</translation>
    </message>
    <message>
        <source>Rows: the true class; columns: the model's prediction. %1 test images.</source>
        <translation>Filas: la clase verdadera; columnas: la predicción del modelo. %1 imágenes de prueba.</translation>
    </message>
    <message>
        <source>total</source>
        <translation>total</translation>
    </message>
    <message>
        <source>%1 of %2 predicted symbols of the validation text are wrong. The most frequent mistakes (of %3 kinds):</source>
        <translation>%1 de %2 símbolos predichos del texto de validación son erróneos. Los errores más frecuentes (de %3 tipos):</translation>
    </message>
    <message>
        <source>%1 of %2 test images are misclassified; the %3 the model was surest of are shown.</source>
        <translation>%1 de %2 imágenes de prueba están mal clasificadas; se muestran las %3 de las que el modelo estaba más seguro.</translation>
    </message>
    <message>
        <source>%1 of %2 test images are misclassified.</source>
        <translation>%1 de %2 imágenes de prueba están mal clasificadas.</translation>
    </message>
    <message>
        <source>Most confident mistakes first, as in the window. Each: test index, true class → predicted class (the model's confidence).</source>
        <translation>Primero los errores más seguros, como en la ventana. Cada uno: índice de prueba, clase verdadera → clase predicha (la confianza del modelo).</translation>
    </message>
    <message>
        <source>Test accuracy</source>
        <translation>Exactitud de prueba</translation>
    </message>
    <message>
        <source>Test loss</source>
        <translation>Pérdida de prueba</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 de %2</translation>
    </message>
    <message>
        <source>Training time</source>
        <translation>Tiempo de entrenamiento</translation>
    </message>
    <message>
        <source>Symbols/s</source>
        <translation>Símbolos/s</translation>
    </message>
    <message>
        <source>Images/s</source>
        <translation>Imágenes/s</translation>
    </message>
    <message>
        <source>SHA-256 of the parameters (as %1 prints it)</source>
        <translation>SHA-256 de los parámetros (como lo escribe %1)</translation>
    </message>
    <message>
        <source>not recorded</source>
        <translation>no registrado</translation>
    </message>
    <message>
        <source>Files in the run folder</source>
        <translation>Archivos de la carpeta del entrenamiento</translation>
    </message>
    <message>
        <source>Run folder</source>
        <translation>Carpeta del entrenamiento</translation>
    </message>
    <message>
        <source>test, after precise BN</source>
        <translation>prueba, tras la BN precisa</translation>
    </message>
    <message>
        <source>Precise BN recomputed BatchNorm's statistics over %1 training batches after training: the test figures are of the recomputed statistics; the curves and the epochs' validation figures are of those training left, before it.</source>
        <translation>La BN precisa recalculó las estadísticas de BatchNorm con %1 lotes de entrenamiento tras el entrenamiento: las cifras de prueba son de las estadísticas recalculadas; las curvas y las cifras de validación de las épocas, de las que dejó el entrenamiento, antes de recalcularlas.</translation>
    </message>
    <message>
        <source>interrupted, no checkpoint (cannot resume)</source>
        <translation>interrumpido, sin punto de control (no se puede reanudar)</translation>
    </message>
    <message>
        <source>Validation limit</source>
        <translation>Límite de validación</translation>
    </message>
    <message>
        <source>the first %1 samples each epoch</source>
        <translation>las primeras %1 muestras en cada época</translation>
    </message>
    <message>
        <source>No per-batch line: the run folder holds no checkpoint.tbw, which keeps the run's batches.</source>
        <translation>Sin línea por lote: la carpeta del entrenamiento no contiene checkpoint.tbw, que guarda sus lotes.</translation>
    </message>
    <message>
        <source>No per-batch line: the run's checkpoint.tbw was written before checkpoints kept the run's batches.</source>
        <translation>Sin línea por lote: el checkpoint.tbw del entrenamiento se escribió antes de que los puntos de control guardaran sus lotes.</translation>
    </message>
    <message>
        <source>No per-batch line: %1.</source>
        <translation>Sin línea por lote: %1.</translation>
    </message>
    <message>
        <source>train, per batch (smoothed)</source>
        <translation>entrenamiento, por lote (suavizado)</translation>
    </message>
</context>
<context>
    <name>TrainOption</name>
    <message>
        <source>Epochs</source>
        <translation>Épocas</translation>
    </message>
    <message>
        <source>Batch size</source>
        <translation>Tamaño del lote</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>Semilla</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>Optimizador</translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation>Tasa de aprendizaje</translation>
    </message>
    <message>
        <source>Momentum (SGD)</source>
        <translation>Momento (SGD)</translation>
    </message>
    <message>
        <source>Image size ×</source>
        <translation>Tamaño de imagen ×</translation>
    </message>
    <message>
        <source>Batches per epoch</source>
        <translation>Lotes por época</translation>
    </message>
    <message>
        <source>Drop the remainder</source>
        <translation>Descartar el resto</translation>
    </message>
    <message>
        <source>Validation split</source>
        <translation>Fracción de validación</translation>
    </message>
    <message>
        <source>Learning-rate schedule</source>
        <translation>Evolución de la tasa</translation>
    </message>
    <message>
        <source>Early stopping</source>
        <translation>Parada temprana</translation>
    </message>
    <message>
        <source>Patience (epochs)</source>
        <translation>Paciencia (épocas)</translation>
    </message>
    <message>
        <source>Minimum change</source>
        <translation>Cambio mínimo</translation>
    </message>
    <message>
        <source>Restore the best epoch's weights</source>
        <translation>Restaurar los pesos de la mejor época</translation>
    </message>
    <message>
        <source>Checkpoint every</source>
        <translation>Punto de control cada</translation>
    </message>
    <message>
        <source>Precise BN</source>
        <translation>BN precisa</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>Precisión</translation>
    </message>
    <message>
        <source>Validation samples</source>
        <translation>Muestras de validación</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Train neural networks (CNNs on images, LSTMs on text) and compare accelerators.</source>
        <translation>Entrena redes neuronales (CNN con imágenes, LSTM con texto) y compara aceleradores.</translation>
    </message>
    <message>
        <source>Render the README screenshots into &lt;dir&gt;.</source>
        <translation>Genera las capturas del README en &lt;dir&gt;.</translation>
    </message>
    <message>
        <source>Dataset folder for --screenshots.</source>
        <translation>Carpeta del conjunto de datos para --screenshots.</translation>
    </message>
    <message>
        <source>With --screenshots: only the Predict page, with these weights.</source>
        <translation>Con --screenshots: solo la página Predecir, con estos pesos.</translation>
    </message>
    <message>
        <source>With --screenshots: only the Compare page, comparing these devices.</source>
        <translation>Con --screenshots: solo la página Comparar, comparando estos dispositivos.</translation>
    </message>
    <message>
        <source>With --screenshots: only the Runs page, two runs overlaid.</source>
        <translation>Con --screenshots: solo la página Entrenamientos, con dos entrenamientos superpuestos.</translation>
    </message>
    <message>
        <source>With --screenshots and --data TEXT: the Write and Results pages of a text model, with these weights.</source>
        <translation>Con --screenshots y --data TEXTO: las páginas Escribir y Resultados de un modelo de texto, con estos pesos.</translation>
    </message>
    <message>
        <source>A dataset folder of IDX files, or a text file or folder of texts, to open.</source>
        <translation>Una carpeta de archivos IDX, o un archivo de texto o una carpeta de textos, que abrir.</translation>
    </message>
    <message>
        <source>Trainbench</source>
        <translation>Trainbench</translation>
    </message>
    <message>
        <source>A setting of the environment is not valid:
%1</source>
        <translation>Un ajuste del entorno no es válido:
%1</translation>
    </message>
</context>
<context>
    <name>tbui::AcceleratorPanel</name>
    <message>
        <source>Accelerator</source>
        <translation>Acelerador</translation>
    </message>
    <message>
        <source>GPU: none usable (%1)</source>
        <translation>GPU: ninguna utilizable (%1)</translation>
    </message>
    <message>
        <source>%1 (%2, compute %3.%4)</source>
        <translation>%1 (%2, capacidad de cómputo %3.%4)</translation>
    </message>
    <message>
        <source>GPU: %1</source>
        <translation>GPU: %1</translation>
    </message>
    <message>
        <source>CPU: %1
%2 cores, %3, %4 RAM
%5</source>
        <translation>CPU: %1
%2 núcleos, %3, %4 de RAM
%5</translation>
    </message>
    <message>
        <source>One CPU core</source>
        <translation>Un núcleo de CPU</translation>
    </message>
    <message>
        <source>All CPU cores (%1)</source>
        <translation>Todos los núcleos de CPU (%1)</translation>
    </message>
    <message>
        <source>NVIDIA GPU — unavailable: %1</source>
        <translation>GPU NVIDIA — no disponible: %1</translation>
    </message>
    <message>
        <source>NVIDIA GPU</source>
        <translation>GPU NVIDIA</translation>
    </message>
    <message>
        <source>TPU — cloud only</source>
        <translation>TPU — solo en la nube</translation>
    </message>
    <message>
        <source>TPUs exist only in Google's cloud (Colab, Cloud TPU VMs); a desktop cannot train on one. Compare this machine's CPU and GPU instead.</source>
        <translation>Las TPU solo existen en la nube de Google (Colab, máquinas virtuales Cloud TPU); un equipo de escritorio no puede entrenar con una. Compara en su lugar la CPU y la GPU de esta máquina.</translation>
    </message>
    <message>
        <source>Scale the batch with the replicas (batch × replicas, like the TPU tutorial's 64 × num_replicas_in_sync)</source>
        <translation>Escalar el lote con las réplicas (lote × réplicas, como el 64 × num_replicas_in_sync del tutorial de TPU)</translation>
    </message>
    <message>
        <source>Replicas in sync: %1 — global batch %2 × %1 = %3</source>
        <translation>Réplicas sincronizadas: %1 — lote global %2 × %1 = %3</translation>
    </message>
    <message>
        <source>Replicas in sync: %1 — global batch %2, split across the replicas</source>
        <translation>Réplicas sincronizadas: %1 — lote global %2, repartido entre las réplicas</translation>
    </message>
    <message>
        <source>Scale the batch with the replicas</source>
        <translation>Escalar el lote con las réplicas</translation>
    </message>
    <message>
        <source>CUDA: none usable (%1)</source>
        <translation>CUDA: ninguna utilizable (%1)</translation>
    </message>
    <message>
        <source>Precision:</source>
        <translation>Precisión:</translation>
    </message>
    <message>
        <source>FP32</source>
        <translation>FP32</translation>
    </message>
    <message>
        <source>Every matrix product in 32-bit floating point (the default).</source>
        <translation>Todos los productos de matrices en coma flotante de 32 bits (lo predeterminado).</translation>
    </message>
    <message>
        <source>bfloat16 (bf16)</source>
        <translation>bfloat16 (bf16)</translation>
    </message>
    <message>
        <source>bf16 unavailable: %1</source>
        <translation>bf16 no disponible: %1</translation>
    </message>
    <message>
        <source>The matrix products (convolutions, Dense, LSTM) take their inputs rounded to bfloat16 and sum in FP32; weights, optimizer and loss stay FP32. Only CPUs with AVX512_BF16 run it; the weights differ a little from FP32's.</source>
        <translation>Los productos de matrices (convoluciones, Dense, LSTM) toman sus entradas redondeadas a bfloat16 y suman en FP32; los pesos, el optimizador y la pérdida siguen en FP32. Solo lo ejecutan las CPU con AVX512_BF16; los pesos difieren un poco de los de FP32.</translation>
    </message>
    <message>
        <source>The OpenCL device does not run text models yet: they train on the CPU.</source>
        <translation>El dispositivo OpenCL aún no ejecuta modelos de texto: se entrenan en la CPU.</translation>
    </message>
    <message>
        <source>Replicas in sync: 1 — batch %1</source>
        <translation>Réplicas sincronizadas: 1 — lote %1</translation>
    </message>
</context>
<context>
    <name>tbui::ChartsPanel</name>
    <message>
        <source>Loss</source>
        <translation>Pérdida</translation>
    </message>
    <message>
        <source>Epoch</source>
        <translation>Época</translation>
    </message>
    <message>
        <source>Train (per batch, smoothed)</source>
        <translation>Por lote (suavizado)</translation>
    </message>
    <message>
        <source>Train</source>
        <translation>Entrenamiento</translation>
    </message>
    <message>
        <source>Accuracy</source>
        <translation>Exactitud</translation>
    </message>
    <message>
        <source>Time per epoch</source>
        <translation>Tiempo por época</translation>
    </message>
    <message>
        <source>Seconds</source>
        <translation>Segundos</translation>
    </message>
    <message>
        <source>Samples/s</source>
        <translation>Muestras/s</translation>
    </message>
    <message>
        <source>RAM (system total %1)</source>
        <translation>RAM (total del sistema %1)</translation>
    </message>
    <message>
        <source>MB</source>
        <translation>MB</translation>
    </message>
    <message>
        <source>Trainbench</source>
        <translation>Trainbench</translation>
    </message>
    <message>
        <source>System used</source>
        <translation>Usada por el sistema</translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation>Tasa de aprendizaje</translation>
    </message>
    <message>
        <source>Learning rate (right axis)</source>
        <translation>Tasa de aprendizaje (dcha.)</translation>
    </message>
    <message>
        <source>Rate lowered on plateau</source>
        <translation>Tasa bajada en meseta</translation>
    </message>
    <message>
        <source>Best epoch (%1)</source>
        <translation>Mejor época (%1)</translation>
    </message>
    <message>
        <source>Early stopping</source>
        <translation>Parada temprana</translation>
    </message>
    <message>
        <source>Validation (last %1% of train)</source>
        <translation>Validación (último %1 %)</translation>
    </message>
    <message>
        <source>Validation (test set)</source>
        <translation>Validación (prueba)</translation>
    </message>
    <message>
        <source>Loss per character (nats; bits per character = loss / ln 2)</source>
        <translation>Pérdida por carácter (nats; bits por carácter = pérdida / ln 2)</translation>
    </message>
    <message>
        <source>Loss (nats)</source>
        <translation>Pérdida (nats)</translation>
    </message>
    <message>
        <source>Next-character accuracy</source>
        <translation>Exactitud del carácter siguiente</translation>
    </message>
    <message>
        <source>The loss appears here when training starts.</source>
        <translation>La pérdida aparece aquí cuando empieza el entrenamiento.</translation>
    </message>
    <message>
        <source>The accuracy appears here when training starts.</source>
        <translation>La exactitud aparece aquí cuando empieza el entrenamiento.</translation>
    </message>
    <message>
        <source>Each epoch's time and speed appear here when it ends.</source>
        <translation>El tiempo y la velocidad de cada época aparecen aquí cuando termina.</translation>
    </message>
    <message>
        <source>Validation (last %1% of the text)</source>
        <translation>Validación (último %1 % del texto)</translation>
    </message>
    <message>
        <source>Test after Precise BN</source>
        <translation>Prueba tras BN precisa</translation>
    </message>
    <message>
        <source>Validation (first %1 of the last %2% of train)</source>
        <translation>Validación (primeras %1 del último %2 %)</translation>
    </message>
    <message>
        <source>Validation (first %1 of the last %2% of the text)</source>
        <translation>Validación (primeras %1 del último %2 % del texto)</translation>
    </message>
    <message>
        <source>Validation (first %1 of the test set)</source>
        <translation>Validación (primeras %1 de la prueba)</translation>
    </message>
</context>
<context>
    <name>tbui::ComparePanel</name>
    <message>
        <source>Export the comparison</source>
        <translation>Exportar la comparación</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>Archivos CSV (*.csv)</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>Guardado %1</translation>
    </message>
    <message>
        <source>Export the comparison chart</source>
        <translation>Exportar el gráfico de la comparación</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>Imágenes PNG (*.png)</translation>
    </message>
    <message>
        <source>Compare accelerators</source>
        <translation>Comparar aceleradores</translation>
    </message>
    <message>
        <source>%1 — one CPU core</source>
        <translation>%1 — un núcleo de CPU</translation>
    </message>
    <message>
        <source>%1 — all %2 CPU cores</source>
        <translation>%1 — los %2 núcleos de CPU</translation>
    </message>
    <message>
        <source>%1 — unavailable: %2</source>
        <translation>%1 — no disponible: %2</translation>
    </message>
    <message>
        <source>Sweep:</source>
        <translation>Barrido:</translation>
    </message>
    <message>
        <source>none</source>
        <translation>ninguno</translation>
    </message>
    <message>
        <source>batch size</source>
        <translation>tamaño del lote</translation>
    </message>
    <message>
        <source>image size multiplier</source>
        <translation>multiplicador del tamaño de imagen</translation>
    </message>
    <message>
        <source>values, e.g. 32,64,128,256</source>
        <translation>valores, p. ej. 32,64,128,256</translation>
    </message>
    <message>
        <source>Run comparison</source>
        <translation>Ejecutar comparación</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Detener</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>Exportar CSV…</translation>
    </message>
    <message>
        <source>Export chart PNG…</source>
        <translation>Exportar gráfico PNG…</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>Dispositivo</translation>
    </message>
    <message>
        <source>Replicas</source>
        <translation>Réplicas</translation>
    </message>
    <message>
        <source>Batch</source>
        <translation>Lote</translation>
    </message>
    <message>
        <source>Size ×</source>
        <translation>Tamaño ×</translation>
    </message>
    <message>
        <source>s/epoch</source>
        <translation>s/época</translation>
    </message>
    <message>
        <source>Samples/s</source>
        <translation>Muestras/s</translation>
    </message>
    <message>
        <source>Speed-up</source>
        <translation>Aceleración</translation>
    </message>
    <message>
        <source>Test loss</source>
        <translation>Pérdida de prueba</translation>
    </message>
    <message>
        <source>Test accuracy</source>
        <translation>Exactitud de prueba</translation>
    </message>
    <message>
        <source>Max |Δw|</source>
        <translation>Máx. |Δw|</translation>
    </message>
    <message>
        <source>Weights SHA-256</source>
        <translation>SHA-256 de los pesos</translation>
    </message>
    <message>
        <source>Time per epoch and speed-up</source>
        <translation>Tiempo por época y aceleración</translation>
    </message>
    <message>
        <source>Speed-up vs the first device</source>
        <translation>Aceleración frente al primer dispositivo</translation>
    </message>
    <message>
        <source>A comparison is in progress.</source>
        <translation>Hay una comparación en curso.</translation>
    </message>
    <message>
        <source>Tick at least one device.</source>
        <translation>Marca al menos un dispositivo.</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>Empezando…</translation>
    </message>
    <message>
        <source>Device %1 of %2: %3</source>
        <translation>Dispositivo %1 de %2: %3</translation>
    </message>
    <message>
        <source>Device %1 of %2 — epoch %3/%4, step %5/%6 — %7 samples/s</source>
        <translation>Dispositivo %1 de %2 — época %3/%4, paso %5/%6 — %7 muestras/s</translation>
    </message>
    <message>
        <source>Comparison failed: %1</source>
        <translation>La comparación falló: %1</translation>
    </message>
    <message>
        <source>skipped: %1</source>
        <translation>omitido: %1</translation>
    </message>
    <message>
        <source>running…</source>
        <translation>en curso…</translation>
    </message>
    <message>
        <source>There is nothing to export yet.</source>
        <translation>Aún no hay nada que exportar.</translation>
    </message>
    <message>
        <source>%1 — the same cores with %2 kernels</source>
        <translation>%1 — los mismos núcleos con rutinas %2</translation>
    </message>
    <message>
        <source>Trains the model chosen on the Setup page from the same initial weights on each ticked device in turn, with the same seed, epochs, batch and batches per epoch. CPU devices give identical weights (same SHA-256) on any number of cores, and AVX2 and AVX-512 kernels agree; the SSE4.2 baseline rounds differently, and the table shows its largest weight difference, as for a GPU.</source>
        <translation>Entrena el modelo elegido en la página Configuración desde los mismos pesos iniciales en cada dispositivo marcado, uno tras otro, con la misma semilla, épocas, lote y lotes por época. Los dispositivos CPU dan pesos idénticos (mismo SHA-256) con cualquier número de núcleos, y las rutinas AVX2 y AVX-512 coinciden; la base SSE4.2 redondea de otro modo, y la tabla muestra su mayor diferencia de pesos, como para una GPU.</translation>
    </message>
    <message>
        <source>Not a GPU: it runs the GPU's OpenCL code on this CPU, many times slower than the CPU devices, so it starts unticked.</source>
        <translation>No es una GPU: ejecuta el código OpenCL de la GPU en esta CPU, muchas veces más lento que los dispositivos de CPU, por eso empieza sin marcar.</translation>
    </message>
    <message>
        <source>Device %1 of %2 — epoch %3/%4 trained, evaluating…</source>
        <translation>Dispositivo %1 de %2 — época %3/%4 entrenada, evaluando…</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>Seconds</source>
        <translation>Segundos</translation>
    </message>
    <message>
        <source>The bf16 devices round the products' inputs to bfloat16 (CPUs with AVX512_BF16 only): their weights differ from FP32's, by the largest difference the table shows.</source>
        <translation>Los dispositivos bf16 redondean las entradas de los productos a bfloat16 (solo CPU con AVX512_BF16): sus pesos difieren de los de FP32, en la mayor diferencia que muestra la tabla.</translation>
    </message>
    <message>
        <source>%1 — bfloat16 products, FP32 sums</source>
        <translation>%1 — productos en bfloat16, sumas en FP32</translation>
    </message>
    <message>
        <source>%1 — unavailable</source>
        <translation>%1 — no disponible</translation>
    </message>
    <message>
        <source>The same cores with the matrix products' inputs rounded to bfloat16 and summed in FP32 (AVX512_BF16)</source>
        <translation>Los mismos núcleos con las entradas de los productos de matrices redondeadas a bfloat16 y sumadas en FP32 (AVX512_BF16)</translation>
    </message>
    <message>
        <source>bf16 unavailable: %1</source>
        <translation>bf16 no disponible: %1</translation>
    </message>
    <message>
        <source>Stopped; runs finished: %1 of %2.</source>
        <translation>Detenida; entrenamientos terminados: %1 de %2.</translation>
    </message>
    <message>
        <source>Done; runs compared: %1.</source>
        <translation>Hecho; entrenamientos comparados: %1.</translation>
    </message>
    <message>
        <source>Tick devices above and press Run comparison: each one's time per epoch and speed-up appear here.</source>
        <translation>Marca dispositivos arriba y pulsa Ejecutar comparación: aquí aparecen el tiempo por época y la aceleración de cada uno.</translation>
    </message>
    <message>
        <source>The largest difference of a weight from the first device's that ran at the same batch: 0 where the weights are identical. Where the batch scales with the replicas, each batch has its own first device: another batch trains another run.</source>
        <translation>La mayor diferencia de un peso respecto al del primer dispositivo que se ejecutó con el mismo lote: 0 donde los pesos son idénticos. Donde el lote escala con las réplicas, cada lote tiene su propio primer dispositivo: con otro lote es otro entrenamiento.</translation>
    </message>
    <message>
        <source>A text model reads sequences of symbols: it has no image size</source>
        <translation>Un modelo de texto lee secuencias de símbolos: no tiene tamaño de imagen</translation>
    </message>
</context>
<context>
    <name>tbui::CompareWorker</name>
    <message>
        <source>No dataset is loaded.</source>
        <translation>No hay ningún conjunto de datos cargado.</translation>
    </message>
</context>
<context>
    <name>tbui::ConfusionMatrix</name>
    <message>
        <source>The confusion matrix appears after the first epoch.</source>
        <translation>La matriz de confusión aparece tras la primera época.</translation>
    </message>
    <message>
        <source>Predicted class</source>
        <translation>Clase predicha</translation>
    </message>
    <message>
        <source>Accuracy</source>
        <translation>Exactitud</translation>
    </message>
    <message>
        <source>Rows: true class. Click a cell to see its images.</source>
        <translation>Filas: clase real. Haz clic en una celda para ver sus imágenes.</translation>
    </message>
    <message>
        <source>Rows: true class.</source>
        <translation>Filas: clase real.</translation>
    </message>
</context>
<context>
    <name>tbui::DatasetPanel</name>
    <message>
        <source>Dataset</source>
        <translation>Conjunto de datos</translation>
    </message>
    <message>
        <source>Choose folder…</source>
        <translation>Elegir carpeta…</translation>
    </message>
    <message>
        <source>A folder with train-images-idx3-ubyte, train-labels-idx1-ubyte, t10k-images-idx3-ubyte and t10k-labels-idx1-ubyte (raw or .gz). You can also drop a folder on the window.</source>
        <translation>Una carpeta con train-images-idx3-ubyte, train-labels-idx1-ubyte, t10k-images-idx3-ubyte y t10k-labels-idx1-ubyte (sin comprimir o .gz). También puedes soltar una carpeta sobre la ventana.</translation>
    </message>
    <message>
        <source>Samples per class</source>
        <translation>Ejemplos por clase</translation>
    </message>
    <message>
        <source>Loading %1…</source>
        <translation>Cargando %1…</translation>
    </message>
    <message>
        <source>Could not load the dataset: %1</source>
        <translation>No se pudo cargar el conjunto de datos: %1</translation>
    </message>
    <message>
        <source>Choose a dataset folder</source>
        <translation>Elige una carpeta de datos</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;Files: %2, %3, %4, %5&lt;br&gt;%6 training and %7 test images, %8×%9 pixels&lt;br&gt;%10 classes (%11): %12</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;Archivos: %2, %3, %4, %5&lt;br&gt;%6 imágenes de entrenamiento y %7 de prueba, %8×%9 píxeles&lt;br&gt;%10 clases (%11): %12</translation>
    </message>
    <message>
        <source>Text file…</source>
        <translation>Archivo de texto…</translation>
    </message>
    <message>
        <source>A UTF-8 or plain text file to train a character-level language model on (a folder of text files works too: choose or drop it).</source>
        <translation>Un archivo de texto UTF-8 o plano para entrenar un modelo de lenguaje por caracteres (también sirve una carpeta de archivos de texto: elígela o suéltala).</translation>
    </message>
    <message>
        <source>Vocabulary:</source>
        <translation>Vocabulario:</translation>
    </message>
    <message>
        <source>bytes (256 symbols, as the notebook)</source>
        <translation>bytes (256 símbolos, como el cuaderno)</translation>
    </message>
    <message>
        <source>characters (those of the text)</source>
        <translation>caracteres (los del texto)</translation>
    </message>
    <message>
        <source>Byte-level, the default, can represent any file and never meets an unknown symbol; character-level has one symbol per distinct UTF-8 character (at most 256).</source>
        <translation>Por bytes, el predeterminado, representa cualquier archivo y nunca encuentra un símbolo desconocido; por caracteres tiene un símbolo por cada carácter UTF-8 distinto (256 como máximo).</translation>
    </message>
    <message>
        <source>The beginning of the text</source>
        <translation>El comienzo del texto</translation>
    </message>
    <message>
        <source>No dataset loaded. Choose a folder of IDX files or a text file.</source>
        <translation>No hay ningún conjunto de datos cargado. Elige una carpeta de archivos IDX o un archivo de texto.</translation>
    </message>
    <message>
        <source>Choose a text file</source>
        <translation>Elegir un archivo de texto</translation>
    </message>
    <message>
        <source>Text files (*.txt *.md);;All files (*)</source>
        <translation>Archivos de texto (*.txt *.md);;Todos los archivos (*)</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;Text: %2 (%3 bytes)&lt;br&gt;Vocabulary: %4&lt;br&gt;Sequences of %5 symbols: %6 for training (the first 90% of the text), %7 for validation (the last 10%)</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;Texto: %2 (%3 bytes)&lt;br&gt;Vocabulario: %4&lt;br&gt;Secuencias de %5 símbolos: %6 para entrenar (el primer 90 % del texto), %7 para validar (el último 10 %)</translation>
    </message>
    <message>
        <source>byte-level, 256 symbols (%1 occur in the text)</source>
        <translation>por bytes, 256 símbolos (%1 aparecen en el texto)</translation>
    </message>
    <message>
        <source>character-level, %1 distinct characters</source>
        <translation>por caracteres, %1 caracteres distintos</translation>
    </message>
    <message>
        <source>The dataset shown above, %1, is still the one in use.</source>
        <translation>El conjunto de datos de arriba, %1, sigue siendo el que se usa.</translation>
    </message>
    <message>
        <source>Recent datasets…</source>
        <translation>Recientes…</translation>
    </message>
</context>
<context>
    <name>tbui::HyperparametersPanel</name>
    <message>
        <source>Hyperparameters</source>
        <translation>Hiperparámetros</translation>
    </message>
    <message>
        <source>all</source>
        <translation>todos</translation>
    </message>
    <message>
        <source>Train on at most this many batches per epoch, for quick runs</source>
        <translation>Entrenar como mucho con este número de lotes por época, para pruebas rápidas</translation>
    </message>
    <message>
        <source>Scale the images by this factor to see the compute grow (the TPU tutorial's SIZE_MULTIPLIER)</source>
        <translation>Escalar las imágenes por este factor para ver crecer el cómputo (el SIZE_MULTIPLIER del tutorial de TPU)</translation>
    </message>
    <message>
        <source>Drop the remainder (both splits a multiple of the batch size, as the TPU needs)</source>
        <translation>Descartar el resto (ambas particiones múltiplo del tamaño del lote, como necesita la TPU)</translation>
    </message>
</context>
<context>
    <name>tbui::MainWindow</name>
    <message>
        <source>Open a model file</source>
        <translation>Abrir un archivo de modelo</translation>
    </message>
    <message>
        <source>Model files (*.json);;All files (*)</source>
        <translation>Archivos de modelo (*.json);;Todos los archivos (*)</translation>
    </message>
    <message>
        <source>Open trained weights</source>
        <translation>Abrir pesos entrenados</translation>
    </message>
    <message>
        <source>Export the charts to a folder</source>
        <translation>Exportar los gráficos a una carpeta</translation>
    </message>
    <message>
        <source>Export the history</source>
        <translation>Exportar el historial</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>Archivos CSV (*.csv)</translation>
    </message>
    <message>
        <source>Export the misclassified images</source>
        <translation>Exportar las imágenes mal clasificadas</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>Imágenes PNG (*.png)</translation>
    </message>
    <message>
        <source>Export the confusion matrix</source>
        <translation>Exportar la matriz de confusión</translation>
    </message>
    <message>
        <source>Save the trained weights</source>
        <translation>Guardar los pesos entrenados</translation>
    </message>
    <message>
        <source>Trainbench weights (*.tbw)</source>
        <translation>Pesos de Trainbench (*.tbw)</translation>
    </message>
    <message>
        <source>About Trainbench</source>
        <translation>Acerca de Trainbench</translation>
    </message>
    <message>
        <source>Trainbench</source>
        <translation>Trainbench</translation>
    </message>
    <message>
        <source>Setup</source>
        <translation>Configuración</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>Entrenamiento</translation>
    </message>
    <message>
        <source>Results</source>
        <translation>Resultados</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Archivo</translation>
    </message>
    <message>
        <source>Open dataset folder…</source>
        <translation>Abrir carpeta de datos…</translation>
    </message>
    <message>
        <source>Open model file…</source>
        <translation>Abrir archivo de modelo…</translation>
    </message>
    <message>
        <source>Open weights and evaluate…</source>
        <translation>Abrir pesos y evaluar…</translation>
    </message>
    <message>
        <source>Export charts (PNG and SVG)…</source>
        <translation>Exportar gráficos (PNG y SVG)…</translation>
    </message>
    <message>
        <source>Export history (CSV)…</source>
        <translation>Exportar historial (CSV)…</translation>
    </message>
    <message>
        <source>Export misclassified grid (PNG)…</source>
        <translation>Exportar cuadrícula de errores (PNG)…</translation>
    </message>
    <message>
        <source>Export confusion matrix (PNG)…</source>
        <translation>Exportar matriz de confusión (PNG)…</translation>
    </message>
    <message>
        <source>Save trained weights…</source>
        <translation>Guardar pesos entrenados…</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>Salir</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>&amp;Ejecutar</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>Iniciar</translation>
    </message>
    <message>
        <source>Pause / resume</source>
        <translation>Pausar / reanudar</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Detener</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>&amp;Idioma</translation>
    </message>
    <message>
        <source>System language</source>
        <translation>Idioma del sistema</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>A&amp;yuda</translation>
    </message>
    <message>
        <source>A run is in progress.</source>
        <translation>Hay un entrenamiento en curso.</translation>
    </message>
    <message>
        <source>The dataset is still loading.</source>
        <translation>El conjunto de datos aún se está cargando.</translation>
    </message>
    <message>
        <source>Choose a dataset folder first.</source>
        <translation>Primero elige una carpeta de datos.</translation>
    </message>
    <message>
        <source>The model cannot be used: see the Model panel.</source>
        <translation>El modelo no se puede usar: mira el panel Modelo.</translation>
    </message>
    <message>
        <source>The chosen accelerator cannot be used: %1</source>
        <translation>El acelerador elegido no se puede usar: %1</translation>
    </message>
    <message>
        <source>Saved %1 charts as PNG and SVG in %2</source>
        <translation>Se guardaron %1 gráficos como PNG y SVG en %2</translation>
    </message>
    <message>
        <source>There is no history to export yet: train for an epoch first.</source>
        <translation>Aún no hay historial que exportar: entrena primero una época.</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>Guardado %1</translation>
    </message>
    <message>
        <source>There are no results to export yet.</source>
        <translation>Aún no hay resultados que exportar.</translation>
    </message>
    <message>
        <source>There are no trained weights yet.</source>
        <translation>Aún no hay pesos entrenados.</translation>
    </message>
    <message>
        <source>Choose a dataset folder first, then open the weights to evaluate them on it.</source>
        <translation>Elige primero una carpeta de datos y después abre los pesos para evaluarlos con ella.</translation>
    </message>
    <message>
        <source>Could not evaluate %1: %2</source>
        <translation>No se pudo evaluar %1: %2</translation>
    </message>
    <message>
        <source>Evaluated %1: test loss %2, accuracy %3</source>
        <translation>Evaluado %1: pérdida de prueba %2, exactitud %3</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>Comparar</translation>
    </message>
    <message>
        <source>A comparison is in progress.</source>
        <translation>Hay una comparación en curso.</translation>
    </message>
    <message>
        <source>A training run is in progress; stop it first so the timings are fair.</source>
        <translation>Hay un entrenamiento en curso; detenlo primero para que los tiempos sean justos.</translation>
    </message>
    <message>
        <source>%1 on %2, started %3</source>
        <translation>%1 en %2, iniciado a las %3</translation>
    </message>
    <message>
        <source>Run %1 — validation after epoch %2 of %3, on %4 test images</source>
        <translation>Entrenamiento %1 — validación tras la época %2 de %3, con %4 imágenes de prueba</translation>
    </message>
    <message>
        <source>Saved %1: the first %2 of %3 images (misclassified first); the grid export is capped at %2.</source>
        <translation>Guardado %1: las primeras %2 de %3 imágenes (primero las mal clasificadas); la exportación de la cuadrícula se limita a %2.</translation>
    </message>
    <message>
        <source>Saved %1 (%2 images)</source>
        <translation>Guardado %1 (%2 imágenes)</translation>
    </message>
    <message>
        <source>Weights file %1 — evaluated on the test set of %2</source>
        <translation>Archivo de pesos %1 — evaluado con el conjunto de prueba de %2</translation>
    </message>
    <message>
        <source>A run is in progress</source>
        <translation>Hay un entrenamiento en curso</translation>
    </message>
    <message>
        <source>Training is still running. Stop it and close the window, or stop it and keep the weights so far to save or study them?</source>
        <translation>El entrenamiento sigue en marcha. ¿Detenerlo y cerrar la ventana, o detenerlo y conservar los pesos obtenidos hasta ahora para guardarlos o estudiarlos?</translation>
    </message>
    <message>
        <source>Stop the training? The weights so far are kept, evaluated on the test set and can be saved.</source>
        <translation>¿Detener el entrenamiento? Los pesos obtenidos hasta ahora se conservan, se evalúan con el conjunto de prueba y se pueden guardar.</translation>
    </message>
    <message>
        <source>A comparison is still running. Stop it and close the window? The finished rows are lost.</source>
        <translation>Una comparación sigue en marcha. ¿Detenerla y cerrar la ventana? Se perderán las filas terminadas.</translation>
    </message>
    <message>
        <source>Stop and keep the weights</source>
        <translation>Detener y conservar los pesos</translation>
    </message>
    <message>
        <source>Stop and close</source>
        <translation>Detener y cerrar</translation>
    </message>
    <message>
        <source>Keep running</source>
        <translation>Seguir entrenando</translation>
    </message>
    <message>
        <source>Continue training</source>
        <translation>Continuar el entrenamiento</translation>
    </message>
    <message>
        <source>Weights (*.tbw *.safetensors);;All files (*)</source>
        <translation>Pesos (*.tbw *.safetensors);;Todos los archivos (*)</translation>
    </message>
    <message>
        <source>Export the trained weights</source>
        <translation>Exportar los pesos entrenados</translation>
    </message>
    <message>
        <source>ONNX model (*.onnx);;safetensors for PyTorch (*.safetensors)</source>
        <translation>Modelo ONNX (*.onnx);;safetensors para PyTorch (*.safetensors)</translation>
    </message>
    <message>
        <source>Export weights (ONNX, safetensors)…</source>
        <translation>Exportar pesos (ONNX, safetensors)…</translation>
    </message>
    <message>
        <source>Predict</source>
        <translation>Predecir</translation>
    </message>
    <message>
        <source>weights file %1</source>
        <translation>archivo de pesos %1</translation>
    </message>
    <message>
        <source>Resume a run from its folder</source>
        <translation>Continuar un entrenamiento desde su carpeta</translation>
    </message>
    <message>
        <source>Resume run…</source>
        <translation>Continuar entrenamiento…</translation>
    </message>
    <message>
        <source>Continue a stopped or interrupted run from its folder's checkpoint</source>
        <translation>Continuar un entrenamiento detenido o interrumpido desde el punto de control de su carpeta</translation>
    </message>
    <message>
        <source>A training run is in progress.</source>
        <translation>Hay un entrenamiento en curso.</translation>
    </message>
    <message>
        <source>Run %1 — the final weights on %2 test images</source>
        <translation>Entrenamiento %1 — los pesos finales en %2 imágenes de prueba</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>Entrenamientos</translation>
    </message>
    <message>
        <source>Export report (HTML)…</source>
        <translation>Exportar informe (HTML)…</translation>
    </message>
    <message>
        <source>The last run's report, else the one of the run selected on the Runs page</source>
        <translation>El informe del último entrenamiento, o si no el del entrenamiento elegido en la página Entrenamientos</translation>
    </message>
    <message>
        <source>The run %1 is damaged: %2</source>
        <translation>El entrenamiento %1 está dañado: %2</translation>
    </message>
    <message>
        <source>The run's dataset folder %1 is gone: its results cannot be shown; its report still has the confusion matrix and misclassified images it stored.</source>
        <translation>La carpeta del conjunto de datos del entrenamiento, %1, ya no existe: no se pueden mostrar sus resultados; su informe conserva la matriz de confusión y las imágenes mal clasificadas que guardó.</translation>
    </message>
    <message>
        <source>Sample after epoch %1: %2</source>
        <translation>Muestra tras la época %1: %2</translation>
    </message>
    <message>
        <source>Write</source>
        <translation>Escribir</translation>
    </message>
    <message>
        <source>%1 is an image model and the dataset is a text: choose a text preset (small-text-lstm or shakespeare-lstm).</source>
        <translation>%1 es un modelo de imágenes y el conjunto de datos es un texto: elige un modelo de texto (small-text-lstm o shakespeare-lstm).</translation>
    </message>
    <message>
        <source>%1 is a text model and the dataset holds images: choose an image preset or a text file.</source>
        <translation>%1 es un modelo de texto y el conjunto de datos tiene imágenes: elige un modelo de imágenes o un archivo de texto.</translation>
    </message>
    <message>
        <source>The image size multiplier is for images: set it to 1 to train on a text.</source>
        <translation>El multiplicador del tamaño de imagen es para imágenes: ponlo a 1 para entrenar con un texto.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Trainbench %1&lt;/b&gt;&lt;br&gt;Train convolutional networks on IDX image datasets and LSTM language models on text files, and compare what each accelerator does with the same work, offline.&lt;br&gt;CPU kernels: %2.</source>
        <translation>&lt;b&gt;Trainbench %1&lt;/b&gt;&lt;br&gt;Entrena redes convolucionales con conjuntos de imágenes IDX y modelos de lenguaje LSTM con archivos de texto, y compara lo que hace cada acelerador con el mismo trabajo, sin conexión.&lt;br&gt;Núcleos de cálculo de la CPU: %2.</translation>
    </message>
    <message>
        <source>The report could not be exported.</source>
        <translation>No se pudo exportar el informe.</translation>
    </message>
    <message>
        <source>The run in %1 cannot be resumed.</source>
        <translation>No se puede reanudar el entrenamiento de %1.</translation>
    </message>
    <message>
        <source>The charts could not be exported.</source>
        <translation>No se pudieron exportar las gráficas.</translation>
    </message>
    <message>
        <source>The history could not be exported.</source>
        <translation>No se pudo exportar el historial.</translation>
    </message>
    <message>
        <source>The misclassified grid could not be exported.</source>
        <translation>No se pudo exportar la cuadrícula de imágenes mal clasificadas.</translation>
    </message>
    <message>
        <source>The confusion matrix could not be exported.</source>
        <translation>No se pudo exportar la matriz de confusión.</translation>
    </message>
    <message>
        <source>The weights could not be saved.</source>
        <translation>No se pudieron guardar los pesos.</translation>
    </message>
    <message>
        <source>The results of the run in %1 cannot be shown.</source>
        <translation>No se pueden mostrar los resultados del entrenamiento de %1.</translation>
    </message>
    <message>
        <source>The text %1 the run trained on is gone; its report still has the figures it stored.</source>
        <translation>El texto %1 con el que se hizo el entrenamiento ya no existe; su informe conserva las cifras que guardó.</translation>
    </message>
    <message>
        <source>Run %1 — validation after epoch %2 of %3, on %4 held-out symbols</source>
        <translation>Entrenamiento %1 — validación tras la época %2 de %3, con %4 símbolos reservados</translation>
    </message>
    <message>
        <source>Run %1 — the final weights on %2 held-out symbols</source>
        <translation>Entrenamiento %1 — los pesos finales con %2 símbolos reservados</translation>
    </message>
    <message>
        <source>%1 trains with the image models' settings again: %2 at a learning rate of %3, batch %4, %5 epochs</source>
        <translation>%1 vuelve a entrenar con los ajustes de los modelos de imágenes: %2 con una tasa de aprendizaje de %3, lote %4, %5 épocas</translation>
    </message>
    <message>
        <source>These weights were trained in bf16 and evaluated in FP32; choose bfloat16 under Precision on the Setup page to evaluate them as their run did.</source>
        <translation>Estos pesos se entrenaron en bf16 y se evaluaron en FP32; elige bfloat16 en Precisión, en la página Configuración, para evaluarlos como lo hizo su entrenamiento.</translation>
    </message>
    <message>
        <source>These weights were trained in FP32 and evaluated in bf16; choose FP32 under Precision on the Setup page to evaluate them as their run did.</source>
        <translation>Estos pesos se entrenaron en FP32 y se evaluaron en bf16; elige FP32 en Precisión, en la página Configuración, para evaluarlos como lo hizo su entrenamiento.</translation>
    </message>
    <message>
        <source>It is complete: nothing is left to resume. Its weights are %1.</source>
        <translation>Está terminada: no queda nada que reanudar. Sus pesos son %1.</translation>
    </message>
    <message>
        <source>Run %1 — the weights kept at the stop (epoch %2, step %3) on %4 held-out symbols</source>
        <translation>Entrenamiento %1 — los pesos conservados al detenerlo (época %2, paso %3) con %4 símbolos reservados</translation>
    </message>
    <message>
        <source>Run %1 — the weights kept at the stop (epoch %2, step %3) on %4 test images</source>
        <translation>Entrenamiento %1 — los pesos conservados al detenerlo (época %2, paso %3) en %4 imágenes de prueba</translation>
    </message>
    <message numerus="yes">
        <source>%1 trains with its own settings: %2 at a learning rate of %3, batch %4, %n epoch(s) (an image model gets its settings back)</source>
        <translation><numerusform>%1 entrena con sus propios ajustes: %2 con una tasa de aprendizaje de %3, lote %4, %n época (un modelo de imágenes recupera los suyos)</numerusform><numerusform>%1 entrena con sus propios ajustes: %2 con una tasa de aprendizaje de %3, lote %4, %n épocas (un modelo de imágenes recupera los suyos)</numerusform></translation>
    </message>
    <message>
        <source>%1 on %2, resumed %3</source>
        <translation>%1 en %2, reanudado a las %3</translation>
    </message>
</context>
<context>
    <name>tbui::ModelPanel</name>
    <message>
        <source>Model</source>
        <translation>Modelo</translation>
    </message>
    <message>
        <source>Open model file…</source>
        <translation>Abrir archivo de modelo…</translation>
    </message>
    <message>
        <source>Layer (type)</source>
        <translation>Capa (tipo)</translation>
    </message>
    <message>
        <source>Output shape</source>
        <translation>Forma de salida</translation>
    </message>
    <message>
        <source>Params</source>
        <translation>Parámetros</translation>
    </message>
    <message>
        <source>Open a model file</source>
        <translation>Abrir un archivo de modelo</translation>
    </message>
    <message>
        <source>Model files (*.json);;All files (*)</source>
        <translation>Archivos de modelo (*.json);;Todos los archivos (*)</translation>
    </message>
    <message>
        <source>File: %1</source>
        <translation>Archivo: %1</translation>
    </message>
    <message>
        <source>Could not use this model: %1</source>
        <translation>No se pudo usar este modelo: %1</translation>
    </message>
    <message>
        <source>Model file %1</source>
        <translation>Archivo de modelo %1</translation>
    </message>
    <message>
        <source>Total params: %1 — trainable: %2 — non-trainable: %3</source>
        <translation>Total de parámetros: %1 — entrenables: %2 — no entrenables: %3</translation>
    </message>
    <message>
        <source>This model does not fit %1×%2 images with %3 classes: %4</source>
        <translation>Este modelo no encaja con imágenes de %1×%2 y %3 clases: %4</translation>
    </message>
    <message>
        <source>%1 is an image model and the dataset is a text: choose a text preset (small-text-lstm, shakespeare-lstm) or a text dataset.</source>
        <translation>%1 es un modelo de imágenes y el conjunto de datos es un texto: elige un modelo de texto (small-text-lstm, shakespeare-lstm) o un conjunto de datos de texto.</translation>
    </message>
    <message>
        <source>%1 is a text model and the dataset holds images: choose an image preset or a text dataset.</source>
        <translation>%1 es un modelo de texto y el conjunto de datos tiene imágenes: elige un modelo de imágenes o un conjunto de datos de texto.</translation>
    </message>
    <message>
        <source>This model does not fit sequences of %1 symbols over %2 symbols: %3</source>
        <translation>Este modelo no admite secuencias de %1 símbolos sobre %2 símbolos: %3</translation>
    </message>
</context>
<context>
    <name>tbui::PredictPanel</name>
    <message>
        <source>Open a picture</source>
        <translation>Abrir una imagen</translation>
    </message>
    <message>
        <source>Pictures (%1);;All files (*)</source>
        <translation>Imágenes (%1);;Todos los archivos (*)</translation>
    </message>
    <message>
        <source>Open trained weights</source>
        <translation>Abrir pesos entrenados</translation>
    </message>
    <message>
        <source>Weights (*.tbw *.safetensors);;All files (*)</source>
        <translation>Pesos (*.tbw *.safetensors);;Todos los archivos (*)</translation>
    </message>
    <message>
        <source>Open weights…</source>
        <translation>Abrir pesos…</translation>
    </message>
    <message>
        <source>Open picture…</source>
        <translation>Abrir imagen…</translation>
    </message>
    <message>
        <source>Paste</source>
        <translation>Pegar</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>Deshacer</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>Borrar</translation>
    </message>
    <message>
        <source>Brush</source>
        <translation>Pincel</translation>
    </message>
    <message>
        <source>Invert dark ink on light paper</source>
        <translation>Invertir tinta oscura sobre papel claro</translation>
    </message>
    <message>
        <source>The datasets store white ink on black: a picture lighter at its border than in its middle is inverted.</source>
        <translation>Los conjuntos de datos guardan tinta blanca sobre negro: una imagen más clara en el borde que en el centro se invierte.</translation>
    </message>
    <message>
        <source>Centre like MNIST</source>
        <translation>Centrar como MNIST</translation>
    </message>
    <message>
        <source>Classes shown</source>
        <translation>Clases mostradas</translation>
    </message>
    <message>
        <source>Draw with the mouse, a pen or a finger; drop or paste a picture here.</source>
        <translation>Dibuja con el ratón, un lápiz o el dedo; suelta o pega una imagen aquí.</translation>
    </message>
    <message>
        <source>Most probable classes</source>
        <translation>Clases más probables</translation>
    </message>
    <message>
        <source>No model yet: train one (Setup, then Start) or open a weights file. Meanwhile the page shows what a model would receive.</source>
        <translation>Aún no hay modelo: entrena uno (Configuración y luego Iniciar) o abre un archivo de pesos. Mientras tanto, la página muestra lo que recibiría un modelo.</translation>
    </message>
    <message>
        <source>Could not use the model: %1</source>
        <translation>No se pudo usar el modelo: %1</translation>
    </message>
    <message>
        <source>Could not open %1: %2</source>
        <translation>No se pudo abrir %1: %2</translation>
    </message>
    <message>
        <source>weights file %1</source>
        <translation>archivo de pesos %1</translation>
    </message>
    <message>
        <source>The pasted picture</source>
        <translation>La imagen pegada</translation>
    </message>
    <message>
        <source>the pasted picture</source>
        <translation>la imagen pegada</translation>
    </message>
    <message>
        <source>The clipboard holds no picture.</source>
        <translation>El portapapeles no contiene ninguna imagen.</translation>
    </message>
    <message>
        <source>The dropped picture</source>
        <translation>La imagen soltada</translation>
    </message>
    <message>
        <source>the dropped picture</source>
        <translation>la imagen soltada</translation>
    </message>
    <message>
        <source>inverted</source>
        <translation>invertida</translation>
    </message>
    <message>
        <source>cropped, fitted into 20×20 and centred</source>
        <translation>recortada, encajada en 20×20 y centrada</translation>
    </message>
    <message>
        <source>not centred: no ink lighter than the paper</source>
        <translation>sin centrar: no hay tinta más clara que el papel</translation>
    </message>
    <message>
        <source>resized</source>
        <translation>redimensionada</translation>
    </message>
    <message>
        <source>What the model receives (%1×%2): %3</source>
        <translation>Lo que recibe el modelo (%1×%2): %3</translation>
    </message>
    <message>
        <source>Draw a digit, or open, drop or paste a picture.</source>
        <translation>Dibuja un dígito, o abre, suelta o pega una imagen.</translation>
    </message>
    <message>
        <source>No model to predict with yet.</source>
        <translation>Aún no hay modelo con el que predecir.</translation>
    </message>
    <message>
        <source>Model: %1 — %2×%3 pictures, %4 classes</source>
        <translation>Modelo: %1 — imágenes de %2×%3, %4 clases</translation>
    </message>
    <message>
        <source>Draw one of the model's classes, or open, drop or paste a picture.</source>
        <translation>Dibuja una de las clases del modelo, o abre, suelta o pega una imagen.</translation>
    </message>
    <message>
        <source>%1 (%2) — predicted in %3 ms on one core</source>
        <translation>%1 (%2) — predicho en %3 ms en un núcleo</translation>
    </message>
    <message>
        <source>nothing, the picture is blank</source>
        <translation>nada, la imagen está en blanco</translation>
    </message>
    <message>
        <source>A text model writes on the Write page; this page keeps predicting with %1.</source>
        <translation>Un modelo de texto escribe en la página Escribir; esta página sigue prediciendo con %1.</translation>
    </message>
    <message>
        <source>A text model writes on the Write page; this page predicts with an image model: train one, or open its weights file.</source>
        <translation>Un modelo de texto escribe en la página Escribir; esta página predice con un modelo de imágenes: entrena uno, o abre su archivo de pesos.</translation>
    </message>
    <message>
        <source>nothing, no picture is open</source>
        <translation>nada, no hay ninguna imagen abierta</translation>
    </message>
    <message>
        <source>Crop to the ink, fit it into 20×20 keeping its shape and put its centre of mass in the middle of 28×28, as MNIST did. Off: the whole picture resized; one of other proportions is trimmed of its margins and fitted, not stretched, as Fashion-MNIST's pictures were.</source>
        <translation>Recortar a la tinta, encajarla en 20×20 conservando su forma y llevar su centro de masa al centro de 28×28, como hizo MNIST. Desactivado: toda la imagen redimensionada; una de otras proporciones se recorta de sus márgenes y se encaja sin estirarla, como se hicieron las imágenes de Fashion-MNIST.</translation>
    </message>
    <message>
        <source>trimmed and fitted, not stretched</source>
        <translation>recortada y encajada, sin estirar</translation>
    </message>
</context>
<context>
    <name>tbui::ResultsPanel</name>
    <message>
        <source>Show all images</source>
        <translation>Mostrar todas las imágenes</translation>
    </message>
    <message>
        <source>Results appear after the first epoch.</source>
        <translation>Los resultados aparecen tras la primera época.</translation>
    </message>
    <message>
        <source>%1 of %2 wrong</source>
        <translation>%1 de %2 erróneas</translation>
    </message>
    <message>
        <source>true: %1</source>
        <translation>real: %1</translation>
    </message>
    <message>
        <source>Test image %1</source>
        <translation>Imagen de prueba %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;True class:&lt;/b&gt; %1&lt;br&gt;&lt;b&gt;Predicted:&lt;/b&gt; %2&lt;br&gt;&lt;br&gt;&lt;b&gt;Top 3&lt;/b&gt;&lt;br&gt;</source>
        <translation>&lt;b&gt;Clase real:&lt;/b&gt; %1&lt;br&gt;&lt;b&gt;Predicha:&lt;/b&gt; %2&lt;br&gt;&lt;br&gt;&lt;b&gt;Las 3 más probables&lt;/b&gt;&lt;br&gt;</translation>
    </message>
    <message numerus="yes">
        <source>%Ln image(s) of class %1 predicted as %2</source>
        <translation><numerusform>%Ln imagen de la clase %1 predicha como %2</numerusform><numerusform>%Ln imágenes de la clase %1 predichas como %2</numerusform></translation>
    </message>
</context>
<context>
    <name>tbui::RunOptionsFields</name>
    <message>
        <source>Advanced: validation, schedule, early stopping</source>
        <translation>Avanzado: validación, tasa, parada</translation>
    </message>
    <message>
        <source>Drop every (epochs)</source>
        <translation>Bajar cada (épocas)</translation>
    </message>
    <message>
        <source>Factor</source>
        <translation>Factor</translation>
    </message>
    <message>
        <source>Decay rate</source>
        <translation>Tasa de decaimiento</translation>
    </message>
    <message>
        <source>Decay steps</source>
        <translation>Pasos de decaimiento</translation>
    </message>
    <message>
        <source>Warm-up steps</source>
        <translation>Pasos de calentamiento</translation>
    </message>
    <message>
        <source>Final rate (× initial)</source>
        <translation>Tasa final (× inicial)</translation>
    </message>
    <message>
        <source>Patience (epochs)</source>
        <translation>Paciencia (épocas)</translation>
    </message>
    <message>
        <source>Minimum rate</source>
        <translation>Tasa mínima</translation>
    </message>
    <message>
        <source>0 (test set)</source>
        <translation>0 (prueba)</translation>
    </message>
    <message>
        <source>Hold out this last fraction of the training images to validate each epoch (Keras' validation_split), so the test set stays untouched until the end; 0: the test set validates each epoch, as the tutorials do</source>
        <translation>Reservar esta última fracción de las imágenes de entrenamiento para validar cada época (validation_split de Keras), de modo que el conjunto de prueba quede intacto hasta el final; 0: el conjunto de prueba valida cada época, como en los tutoriales</translation>
    </message>
    <message>
        <source>Constant</source>
        <translation>Constante</translation>
    </message>
    <message>
        <source>Step decay</source>
        <translation>Decaimiento escalonado</translation>
    </message>
    <message>
        <source>Exponential decay</source>
        <translation>Decaimiento exponencial</translation>
    </message>
    <message>
        <source>Cosine with warm-up</source>
        <translation>Coseno con calentamiento</translation>
    </message>
    <message>
        <source>Reduce on plateau</source>
        <translation>Reducir en meseta</translation>
    </message>
    <message>
        <source>How the learning rate changes during the run; it is plotted beside the loss</source>
        <translation>Cómo cambia la tasa de aprendizaje durante el entrenamiento; se dibuja junto a la pérdida</translation>
    </message>
    <message>
        <source>The rate is multiplied by this factor at each drop</source>
        <translation>La tasa se multiplica por este factor en cada bajada</translation>
    </message>
    <message>
        <source>Initial rate × decay rate ^ (step / decay steps)</source>
        <translation>Tasa inicial × tasa de decaimiento ^ (paso / pasos de decaimiento)</translation>
    </message>
    <message>
        <source>Steps of linear warm-up from 0, then cosine decay to the final rate at the run's last step</source>
        <translation>Pasos de calentamiento lineal desde 0 y después decaimiento en coseno hasta la tasa final en el último paso</translation>
    </message>
    <message>
        <source>Epochs without improvement of val_loss before the rate is lowered</source>
        <translation>Épocas sin mejora de val_loss antes de bajar la tasa</translation>
    </message>
    <message>
        <source>off</source>
        <translation>desactivada</translation>
    </message>
    <message>
        <source>Stop when the monitored validation value has not improved for the patience</source>
        <translation>Detener cuando el valor de validación vigilado no haya mejorado durante la paciencia</translation>
    </message>
    <message>
        <source>A change smaller than this is not an improvement</source>
        <translation>Un cambio menor que este no es una mejora</translation>
    </message>
    <message>
        <source>epoch ends</source>
        <translation>época</translation>
    </message>
    <message>
        <source> batches</source>
        <translation> lotes</translation>
    </message>
    <message>
        <source>Every run writes a checkpoint into its run folder at each epoch end and on Stop; also every this many batches</source>
        <translation>Cada entrenamiento escribe un punto de control en su carpeta al final de cada época y al detenerlo; también cada este número de lotes</translation>
    </message>
    <message>
        <source>As the CLI: %1</source>
        <translation>Como en la CLI: %1</translation>
    </message>
    <message>
        <source>After training, recompute BatchNorm's moving mean and variance over this many training batches. A short run's moving averages still hold much of their initial values, and its test accuracy falls far below its training accuracy; this fixes it (100 batches is plenty).</source>
        <translation>Tras entrenar, recalcula la media y la varianza móviles de BatchNorm con este número de lotes de entrenamiento. Las medias móviles de un entrenamiento corto aún conservan buena parte de sus valores iniciales y su exactitud de prueba queda muy por debajo de la de entrenamiento; esto lo corrige (100 lotes bastan).</translation>
    </message>
    <message>
        <source>no limit</source>
        <translation>sin límite</translation>
    </message>
    <message>
        <source>Validate each epoch on this many samples only, for quick runs on large data (a long text validates for seconds each epoch); the test at the end is not limited</source>
        <translation>Validar cada época solo con este número de muestras, para pruebas rápidas con muchos datos (un texto largo tarda segundos en validarse cada época); la prueba final no se limita</translation>
    </message>
</context>
<context>
    <name>tbui::RunPanel</name>
    <message>
        <source>Start</source>
        <translation>Iniciar</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Reanudar</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Pausar</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Detener</translation>
    </message>
    <message>
        <source>Ready.</source>
        <translation>Listo.</translation>
    </message>
    <message>
        <source>Epoch %1/%2</source>
        <translation>Época %1/%2</translation>
    </message>
    <message>
        <source>Test loss: %1 - test accuracy: %2 - weights sha256: %3</source>
        <translation>Pérdida de prueba: %1 - exactitud de prueba: %2 - sha256 de los pesos: %3</translation>
    </message>
    <message>
        <source>Finished: test accuracy %1.</source>
        <translation>Terminado: exactitud de prueba %1.</translation>
    </message>
    <message>
        <source>Stopped by the user; test accuracy of the weights so far: %1</source>
        <translation>Detenido por el usuario; exactitud de prueba de los pesos hasta ahora: %1</translation>
    </message>
    <message>
        <source>Error: %1</source>
        <translation>Error: %1</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>Falló: %1</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>Entrenamiento</translation>
    </message>
    <message>
        <source>Paused</source>
        <translation>En pausa</translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation>Deteniendo…</translation>
    </message>
    <message>
        <source>Epoch: %v/%m steps</source>
        <translation>Época: %v/%m pasos</translation>
    </message>
    <message>
        <source>Run: %p%</source>
        <translation>Total: %p%</translation>
    </message>
    <message>
        <source>Steps of the current epoch</source>
        <translation>Pasos de la época actual</translation>
    </message>
    <message>
        <source>Steps of the whole run</source>
        <translation>Pasos de todo el entrenamiento</translation>
    </message>
    <message>
        <source>Paused at epoch %1/%2, step %3/%4; the clock is stopped too. Resume to go on.</source>
        <translation>En pausa en la época %1/%2, paso %3/%4; el reloj también está parado. Pulsa Reanudar para seguir.</translation>
    </message>
    <message>
        <source>Finishing the batch in flight, then the weights so far are evaluated on the test set.</source>
        <translation>Terminando el lote en curso; después se evalúan los pesos obtenidos hasta ahora con el conjunto de prueba.</translation>
    </message>
    <message>
        <source>Evaluating the weights so far on the %1 test images…</source>
        <translation>Evaluando los pesos obtenidos hasta ahora con las %1 imágenes de prueba…</translation>
    </message>
    <message>
        <source>Epoch %1/%2 — step %3/%4 — ETA %5 — run %6% — run ETA %7 — %8 samples/s — loss %9 — accuracy %10</source>
        <translation>Época %1/%2 — paso %3/%4 — quedan %5 — total %6% — quedan %7 en total — %8 muestras/s — pérdida %9 — exactitud %10</translation>
    </message>
    <message>
        <source>Stopped at epoch %1, step %2; the weights so far are kept (test accuracy %3).</source>
        <translation>Detenido en la época %1, paso %2; se conservan los pesos obtenidos hasta ahora (exactitud de prueba %3).</translation>
    </message>
    <message>
        <source>Run folder %1</source>
        <translation>Carpeta del entrenamiento %1</translation>
    </message>
    <message>
        <source>Run folder %1 (the run is complete)</source>
        <translation>Carpeta del entrenamiento %1 (el entrenamiento está completo)</translation>
    </message>
    <message>
        <source>Run folder %1 (resumed at epoch %2, step %3)</source>
        <translation>Carpeta del entrenamiento %1 (continuado en la época %2, paso %3)</translation>
    </message>
    <message>
        <source>Validation: the last %1% of the training images (%2), held out; the test set is used at the end only</source>
        <translation>Validación: el último %1% de las imágenes de entrenamiento (%2), reservado; el conjunto de prueba solo se usa al final</translation>
    </message>
    <message>
        <source>Validation: the test set (%1 images), after each epoch</source>
        <translation>Validación: el conjunto de prueba (%1 imágenes), tras cada época</translation>
    </message>
    <message>
        <source>Learning-rate schedule: %1</source>
        <translation>Programación de la tasa de aprendizaje: %1</translation>
    </message>
    <message>
        <source>Early stopping: %1</source>
        <translation>Parada temprana: %1</translation>
    </message>
    <message>
        <source>Epoch %1: ReduceLROnPlateau reducing learning rate to %2.</source>
        <translation>Época %1: ReduceLROnPlateau baja la tasa de aprendizaje a %2.</translation>
    </message>
    <message>
        <source>Epoch %1: %2 improved to %3, the best epoch so far.</source>
        <translation>Época %1: %2 mejoró a %3, la mejor época hasta ahora.</translation>
    </message>
    <message>
        <source>Epoch %1: early stopping</source>
        <translation>Época %1: parada temprana</translation>
    </message>
    <message>
        <source>Restoring model weights from the end of the best epoch: %1.</source>
        <translation>Restaurando los pesos del final de la mejor época: %1.</translation>
    </message>
    <message>
        <source>The checkpoint is in %1; File &gt; Resume run… continues the run.</source>
        <translation>El punto de control está en %1; Archivo &gt; Continuar entrenamiento… lo continúa.</translation>
    </message>
    <message>
        <source>%1 - ETA: %2 - loss: %3 - accuracy: %4</source>
        <translation>%1 - tiempo restante: %2 - pérdida: %3 - exactitud: %4</translation>
    </message>
    <message>
        <source>%1 - %2 %3ms/step - loss: %4 - accuracy: %5 - val_loss: %6 - val_accuracy: %7</source>
        <translation>%1 - %2 %3ms/paso - pérdida: %4 - exactitud: %5 - pérdida_val: %6 - exactitud_val: %7</translation>
    </message>
    <message>
        <source> - learning_rate: %1</source>
        <translation> - tasa_de_aprendizaje: %1</translation>
    </message>
    <message>
        <source> - bpc: %1 - val_bpc: %2</source>
        <translation> - bpc: %1 - bpc_val: %2</translation>
    </message>
    <message>
        <source>Epoch: no run yet</source>
        <translation>Época: aún sin entrenamiento</translation>
    </message>
    <message>
        <source>It ran on %1 until now; it continues on %2.</source>
        <translation>Hasta ahora se entrenó en %1; continúa en %2.</translation>
    </message>
    <message>
        <source>Evaluating the final weights on the %1 test images…</source>
        <translation>Evaluando los pesos finales con las %1 imágenes de prueba…</translation>
    </message>
    <message>
        <source>Run folder %1 (resumed at epoch %2's validation)</source>
        <translation>Carpeta del entrenamiento %1 (continuado en la validación de la época %2)</translation>
    </message>
    <message>
        <source>Paused — epoch: %v/%m steps</source>
        <translation>En pausa — época: %v/%m pasos</translation>
    </message>
    <message numerus="yes">
        <source>Training: %n replica(s) in sync, global batch %1.</source>
        <translation><numerusform>Entrenando: %n réplica sincronizada, lote global %1.</numerusform><numerusform>Entrenando: %n réplicas sincronizadas, lote global %1.</numerusform></translation>
    </message>
    <message>
        <source>Starting: reading the dataset and preparing the device…</source>
        <translation>Iniciando: leyendo el conjunto de datos y preparando el dispositivo…</translation>
    </message>
    <message>
        <source>Epoch %1/%2 trained — validating…</source>
        <translation>Época %1/%2 entrenada — validando…</translation>
    </message>
    <message>
        <source>Evaluating the final weights on the %1 held-out sequences…</source>
        <translation>Evaluando los pesos finales con las %1 secuencias reservadas…</translation>
    </message>
    <message>
        <source>Evaluating the weights so far on the %1 held-out sequences…</source>
        <translation>Evaluando los pesos hasta ahora con las %1 secuencias reservadas…</translation>
    </message>
    <message>
        <source>Validation: the text's last part (%1 sequences), after each epoch</source>
        <translation>Validación: la última parte del texto (%1 secuencias), tras cada época</translation>
    </message>
    <message>
        <source>Note: %1</source>
        <translation>Nota: %1</translation>
    </message>
    <message>
        <source>Each epoch validates on the first %1 of them only; the test at the end takes them all</source>
        <translation>Cada época valida solo con las primeras %1; la prueba final las usa todas</translation>
    </message>
    <message>
        <source>Each epoch validates on the first %1 of them only</source>
        <translation>Cada época valida solo con las primeras %1</translation>
    </message>
</context>
<context>
    <name>tbui::RunsPanel</name>
    <message>
        <source>Overlay</source>
        <translation>Superponer</translation>
    </message>
    <message>
        <source>Date</source>
        <translation>Fecha</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modelo</translation>
    </message>
    <message>
        <source>Dataset</source>
        <translation>Conjunto de datos</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>Dispositivo</translation>
    </message>
    <message>
        <source>Epochs</source>
        <translation>Épocas</translation>
    </message>
    <message>
        <source>Final accuracy</source>
        <translation>Exactitud final</translation>
    </message>
    <message>
        <source>Training time</source>
        <translation>Tiempo de entrenamiento</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Estado</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Actualizar</translation>
    </message>
    <message>
        <source>Open results</source>
        <translation>Abrir resultados</translation>
    </message>
    <message>
        <source>Evaluate the run's final weights on its dataset and show them on the Results page</source>
        <translation>Evaluar los pesos finales del entrenamiento en su conjunto de datos y mostrarlos en la página Resultados</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Reanudar</translation>
    </message>
    <message>
        <source>Continue the run from its checkpoint on the accelerator chosen in Setup</source>
        <translation>Continuar el entrenamiento desde su punto de control en el acelerador elegido en Configuración</translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation>Eliminar…</translation>
    </message>
    <message>
        <source>Export report…</source>
        <translation>Exportar informe…</translation>
    </message>
    <message>
        <source>One HTML file with the run's charts, configuration, hardware, confusion matrix and misclassified images, that opens in any browser</source>
        <translation>Un único archivo HTML con las gráficas, la configuración, el hardware, la matriz de confusión y las imágenes mal clasificadas del entrenamiento, que se abre en cualquier navegador</translation>
    </message>
    <message>
        <source>Validation accuracy</source>
        <translation>Exactitud de validación</translation>
    </message>
    <message>
        <source>Validation loss</source>
        <translation>Pérdida de validación</translation>
    </message>
    <message>
        <source>Training loss</source>
        <translation>Pérdida de entrenamiento</translation>
    </message>
    <message>
        <source>Training accuracy</source>
        <translation>Exactitud de entrenamiento</translation>
    </message>
    <message>
        <source>Epoch time (s)</source>
        <translation>Tiempo por época (s)</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 de %2</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>damaged: %1</source>
        <translation>dañado: %1</translation>
    </message>
    <message>
        <source>running or interrupted</source>
        <translation>en curso o interrumpido</translation>
    </message>
    <message>
        <source>No runs yet in %1. Every training run is recorded here.</source>
        <translation>Aún no hay entrenamientos en %1. Cada entrenamiento se registra aquí.</translation>
    </message>
    <message>
        <source>Epoch</source>
        <translation>Época</translation>
    </message>
    <message>
        <source>Saved the report %1</source>
        <translation>Informe guardado en %1</translation>
    </message>
    <message>
        <source>Could not write the report: %1</source>
        <translation>No se pudo escribir el informe: %1</translation>
    </message>
    <message>
        <source>Export the run's report</source>
        <translation>Exportar el informe del entrenamiento</translation>
    </message>
    <message>
        <source>HTML files (*.html)</source>
        <translation>Archivos HTML (*.html)</translation>
    </message>
    <message>
        <source>Delete the run</source>
        <translation>Eliminar el entrenamiento</translation>
    </message>
    <message>
        <source>Delete the run folder %1 with its checkpoints and weights? This cannot be undone.</source>
        <translation>¿Eliminar la carpeta del entrenamiento %1 con sus puntos de control y pesos? No se puede deshacer.</translation>
    </message>
    <message>
        <source>Deleted %1</source>
        <translation>Eliminada %1</translation>
    </message>
    <message>
        <source>Could not delete the run: %1</source>
        <translation>No se pudo eliminar el entrenamiento: %1</translation>
    </message>
    <message>
        <source>Runs in %1: %2. Tick runs to overlay their curves.</source>
        <translation>Entrenamientos en %1: %2. Marca entrenamientos para superponer sus curvas.</translation>
    </message>
    <message>
        <source>Damaged runs that cannot be read: %1; the Status column says why.</source>
        <translation>Entrenamientos dañados que no se pueden leer: %1; la columna Estado dice por qué.</translation>
    </message>
    <message>
        <source>%1 (%2) on %3, %4</source>
        <translation>%1 (%2) en %3, %4</translation>
    </message>
    <message>
        <source>%1 of %2, stopped at step %3/%4 of epoch %5</source>
        <translation>%1 de %2, detenida en el paso %3/%4 de la época %5</translation>
    </message>
    <message>
        <source>%1 on %2, %3</source>
        <translation>%1 en %2, %3</translation>
    </message>
    <message>
        <source>The test accuracy of the final weights; a run without one shows its last validation accuracy</source>
        <translation>La exactitud de prueba de los pesos finales; un entrenamiento sin ella muestra su última exactitud de validación</translation>
    </message>
    <message>
        <source>The final weights' test accuracy, after Precise BN recomputed BatchNorm's statistics over %1 batches; the last validation point (%2) was measured before it.</source>
        <translation>La exactitud de prueba de los pesos finales, después de que BN precisa recalculara las estadísticas de BatchNorm con %1 lotes; el último punto de validación (%2) se midió antes.</translation>
    </message>
    <message>
        <source>, seed %1</source>
        <translation>, semilla %1</translation>
    </message>
    <message>
        <source>Tick runs in the table to overlay their curves here.</source>
        <translation>Marca entrenamientos en la tabla para superponer aquí sus curvas.</translation>
    </message>
    <message>
        <source>%1 of %2 + %3/%4 steps</source>
        <translation>%1 de %2 + %3/%4 pasos</translation>
    </message>
    <message>
        <source>The run is damaged: its record cannot be read.</source>
        <translation>El entrenamiento está dañado: su registro no se puede leer.</translation>
    </message>
    <message>
        <source>The run has not ended: its final weights are saved at its end.</source>
        <translation>El entrenamiento no ha terminado: sus pesos finales se guardan al terminar.</translation>
    </message>
    <message>
        <source>The run was stopped or interrupted before its end: its folder keeps a checkpoint to resume from, not final weights (weights.tbw). Resume it to finish it.</source>
        <translation>El entrenamiento se detuvo o se interrumpió antes de terminar: su carpeta guarda un punto de control desde el que reanudarlo, no pesos finales (weights.tbw). Reanúdalo para terminarlo.</translation>
    </message>
    <message>
        <source>The run's folder has no weights (weights.tbw).</source>
        <translation>La carpeta del entrenamiento no tiene pesos (weights.tbw).</translation>
    </message>
    <message>
        <source>The run is complete: nothing is left to resume.</source>
        <translation>El entrenamiento está completo: no queda nada por reanudar.</translation>
    </message>
    <message>
        <source>The run's folder has no checkpoint (checkpoint.tbw) to resume from.</source>
        <translation>La carpeta del entrenamiento no tiene punto de control (checkpoint.tbw) desde el que reanudarlo.</translation>
    </message>
    <message>
        <source>The run diverged before its end: it has no final weights (weights.tbw).</source>
        <translation>El entrenamiento divergió antes de terminar: no tiene pesos finales (weights.tbw).</translation>
    </message>
    <message>
        <source>The run diverged (its loss or weights became NaN or infinite): resumed, it would repeat the same steps with the same settings and diverge again. Train it again with a lower learning rate.</source>
        <translation>El entrenamiento divergió (su pérdida o sus pesos se volvieron NaN o infinitos): al reanudarlo, repetiría los mismos pasos con los mismos ajustes y volvería a divergir. Vuelve a entrenarlo desde el principio con una tasa de aprendizaje menor.</translation>
    </message>
    <message>
        <source>%1: its folder holds no checkpoint.tbw, which keeps the run's batches</source>
        <translation>%1: su carpeta no contiene checkpoint.tbw, que guarda los lotes del entrenamiento</translation>
    </message>
    <message>
        <source>%1: its checkpoint.tbw was written before checkpoints kept the run's batches</source>
        <translation>%1: su checkpoint.tbw se escribió antes de que los puntos de control guardaran los lotes del entrenamiento</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>%1, per batch (smoothed)</source>
        <translation>%1, por lote (suavizado)</translation>
    </message>
    <message>
        <source>No per-batch line for %1.</source>
        <translation>Sin línea por lote para %1.</translation>
    </message>
    <message>
        <source>%1: points per epoch, light lines per batch (smoothed)</source>
        <translation>%1: puntos por época, líneas claras por lote (suavizadas)</translation>
    </message>
</context>
<context>
    <name>tbui::SaveFile</name>
    <message>
        <source>Could not encode the image for %1</source>
        <translation>No se pudo codificar la imagen para %1</translation>
    </message>
    <message>
        <source>%1. None of the %2 files was written; the folder is as it was.</source>
        <translation>%1. No se escribió ninguno de los %2 archivos; la carpeta está como estaba.</translation>
    </message>
    <message>
        <source>%1. Written: %2. Not written: %3.</source>
        <translation>%1. Escritos: %2. Sin escribir: %3.</translation>
    </message>
    <message>
        <source>none</source>
        <translation>ninguno</translation>
    </message>
</context>
<context>
    <name>tbui::TextResults</name>
    <message>
        <source>The held-out text; the characters the model predicted wrong in red</source>
        <translation>El texto reservado; en rojo, los caracteres que el modelo predijo mal</translation>
    </message>
    <message>
        <source>The most confident mistakes</source>
        <translation>Los errores más seguros</translation>
    </message>
    <message>
        <source>Confusion of the most frequent characters (rows: true, columns: predicted)</source>
        <translation>Confusión de los caracteres más frecuentes (filas: real, columnas: predicho)</translation>
    </message>
    <message>
        <source>Context</source>
        <translation>Contexto</translation>
    </message>
    <message>
        <source>True</source>
        <translation>Real</translation>
    </message>
    <message>
        <source>Predicted</source>
        <translation>Predicho</translation>
    </message>
    <message>
        <source>Confidence</source>
        <translation>Confianza</translation>
    </message>
    <message>
        <source>Results appear after the first epoch.</source>
        <translation>Los resultados aparecen tras la primera época.</translation>
    </message>
    <message>
        <source>%1 of %2 held-out characters predicted wrong (next-character accuracy %3%).</source>
        <translation>%1 de %2 caracteres reservados predichos mal (exactitud del carácter siguiente %3 %).</translation>
    </message>
    <message>
        <source>other</source>
        <translation>otros</translation>
    </message>
    <message>
        <source>%1 of %2 held-out bytes predicted wrong (next-byte accuracy %3%).</source>
        <translation>%1 de %2 bytes reservados predichos mal (exactitud del byte siguiente %3 %).</translation>
    </message>
</context>
<context>
    <name>tbui::TrainWorker</name>
    <message>
        <source>No dataset is loaded.</source>
        <translation>No hay ningún conjunto de datos cargado.</translation>
    </message>
</context>
<context>
    <name>tbui::WritePanel</name>
    <message>
        <source>Open the weights of a text model</source>
        <translation>Abrir los pesos de un modelo de texto</translation>
    </message>
    <message>
        <source>&amp;Prompt:</source>
        <translation>I&amp;nicio:</translation>
    </message>
    <message>
        <source>The text the model continues (empty: it starts a new line)</source>
        <translation>El texto que el modelo continúa (vacío: empieza una línea nueva)</translation>
    </message>
    <message>
        <source> characters</source>
        <translation> caracteres</translation>
    </message>
    <message>
        <source>&amp;Temperature:</source>
        <translation>&amp;Temperatura:</translation>
    </message>
    <message>
        <source>Divides the model's scores before sampling: 0 always takes the most likely character, 1 samples the model's own probabilities, higher is wilder</source>
        <translation>Divide las puntuaciones del modelo antes de muestrear: 0 toma siempre el carácter más probable, 1 muestrea las probabilidades del propio modelo, más es más libre</translation>
    </message>
    <message>
        <source>&amp;Seed:</source>
        <translation>&amp;Semilla:</translation>
    </message>
    <message>
        <source>The same seed, prompt and settings write the same text</source>
        <translation>La misma semilla, inicio y ajustes escriben el mismo texto</translation>
    </message>
    <message>
        <source>Write</source>
        <translation>Escribir</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Detener</translation>
    </message>
    <message>
        <source>Open weights…</source>
        <translation>Abrir pesos…</translation>
    </message>
    <message>
        <source>Tint: the probability the model gave each character</source>
        <translation>Color: la probabilidad que el modelo dio a cada carácter</translation>
    </message>
    <message>
        <source>below 10%</source>
        <translation>menos del 10 %</translation>
    </message>
    <message>
        <source>10–30%</source>
        <translation>10–30 %</translation>
    </message>
    <message>
        <source>30–60%</source>
        <translation>30–60 %</translation>
    </message>
    <message>
        <source>60–90%</source>
        <translation>60–90 %</translation>
    </message>
    <message>
        <source>90% or more</source>
        <translation>90 % o más</translation>
    </message>
    <message>
        <source>Model: %1</source>
        <translation>Modelo: %1</translation>
    </message>
    <message>
        <source>No text model yet: train one (a text dataset and a text preset in Setup) or open the weights of one.</source>
        <translation>Aún no hay modelo de texto: entrena uno (un conjunto de datos de texto y un modelo de texto en Configuración) o abre los pesos de uno.</translation>
    </message>
    <message>
        <source>Could not open %1: %2</source>
        <translation>No se pudo abrir %1: %2</translation>
    </message>
    <message>
        <source>%1 holds an image model (%2): it classifies pictures on the Predict page and cannot write. Open the weights of a text model.</source>
        <translation>%1 contiene un modelo de imágenes (%2): clasifica imágenes en la página Predecir y no puede escribir. Abre los pesos de un modelo de texto.</translation>
    </message>
    <message>
        <source>weights file %1</source>
        <translation>archivo de pesos %1</translation>
    </message>
    <message>
        <source>Writing…</source>
        <translation>Escribiendo…</translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation>Deteniendo…</translation>
    </message>
    <message>
        <source>Could not write: %1</source>
        <translation>No se pudo escribir: %1</translation>
    </message>
    <message>
        <source>Weights (*.tbw *.safetensors);;All files (*)</source>
        <translation>Pesos (*.tbw *.safetensors);;Todos los archivos (*)</translation>
    </message>
    <message>
        <source> bytes</source>
        <translation> bytes</translation>
    </message>
    <message>
        <source>How many symbols the model writes after the prompt: characters, or bytes for a byte-level model (a non-ASCII character is several bytes)</source>
        <translation>Cuántos símbolos escribe el modelo tras el inicio: caracteres, o bytes en un modelo a nivel de bytes (un carácter no ASCII ocupa varios bytes)</translation>
    </message>
    <message>
        <source>Stopped after %1 of %2 bytes; mean probability %3%.</source>
        <translation>Detenido tras %1 de %2 bytes; probabilidad media %3 %.</translation>
    </message>
    <message>
        <source>Stopped after %1 of %2 characters; mean probability %3%.</source>
        <translation>Detenido tras %1 de %2 caracteres; probabilidad media %3 %.</translation>
    </message>
    <message>
        <source>Wrote %1 bytes; mean probability %2%.</source>
        <translation>Escritos %1 bytes; probabilidad media %2 %.</translation>
    </message>
    <message>
        <source>Wrote %1 characters; mean probability %2%.</source>
        <translation>Escritos %1 caracteres; probabilidad media %2 %.</translation>
    </message>
    <message>
        <source>Len&amp;gth:</source>
        <translation>&amp;Longitud:</translation>
    </message>
</context>
</TS>