#!/usr/bin/env python3
"""Fills translations/trainbench_es.ts from the table below after `make update_translations`.
Keeping the table in a script makes the Spanish reviewable in one place; a source without an
entry is reported and left unfinished."""
import sys
import xml.etree.ElementTree as ET

ES = {
    "Could not write %1: %2": "No se pudo escribir %1: %2",
    "Could not encode the image for %1": "No se pudo codificar la imagen para %1",
    "Accelerator": "Acelerador",
    "GPU: none usable (%1)": "GPU: ninguna utilizable (%1)",
    "%1 (%2, compute %3.%4)": "%1 (%2, capacidad de cómputo %3.%4)",
    "GPU: %1": "GPU: %1",
    "CPU: %1\n%2 cores, %3, %4 RAM\n%5": "CPU: %1\n%2 núcleos, %3, %4 de RAM\n%5",
    "CUDA: none usable (%1)": "CUDA: ninguna utilizable (%1)",
    "GPU": "GPU",
    "CPU": "CPU",
    "accelerator": "acelerador",
    "%1, %2": "%1, %2",
    "OpenCL: %1 (%2)": "OpenCL: %1 (%2)",
    "%1, unavailable: %2": "%1, no disponible: %2",
    "%1 compute units at %2 MHz": "%1 unidades de cómputo a %2 MHz",
    "%1 compute units": "%1 unidades de cómputo",
    "%1, %2, %3, about %4 GFLOP/s FP32": "%1, %2, %3, unos %4 GFLOP/s en FP32",
    "OpenCL: none usable (%1)": "OpenCL: ninguno utilizable (%1)",
    "%1 — %2": "%1 — %2",
    "Not a GPU: it runs the GPU's OpenCL code on this CPU, many times slower than the CPU devices, so it starts unticked.":
        "No es una GPU: ejecuta el código OpenCL de la GPU en esta CPU, muchas veces más lento que los dispositivos de CPU, por eso empieza sin marcar.",
    "Device %1 of %2 — epoch %3/%4 trained, evaluating…": "Dispositivo %1 de %2 — época %3/%4 entrenada, evaluando…",
    "One CPU core": "Un núcleo de CPU",
    "All CPU cores (%1)": "Todos los núcleos de CPU (%1)",
    "NVIDIA GPU — unavailable: %1": "GPU NVIDIA — no disponible: %1",
    "NVIDIA GPU": "GPU NVIDIA",
    "TPU — cloud only": "TPU — solo en la nube",
    "TPUs exist only in Google's cloud (Colab, Cloud TPU VMs); a desktop cannot train on one. Compare this machine's CPU and GPU instead.":
        "Las TPU solo existen en la nube de Google (Colab, máquinas virtuales Cloud TPU); un equipo de escritorio no puede entrenar con una. Compara en su lugar la CPU y la GPU de esta máquina.",
    "Scale the batch with the replicas (batch × replicas, like the TPU tutorial's 64 × num_replicas_in_sync)":
        "Escalar el lote con las réplicas (lote × réplicas, como el 64 × num_replicas_in_sync del tutorial de TPU)",
    "Replicas in sync: %1 — global batch %2 × %1 = %3": "Réplicas sincronizadas: %1 — lote global %2 × %1 = %3",
    "Replicas in sync: %1 — global batch %2, split across the replicas":
        "Réplicas sincronizadas: %1 — lote global %2, repartido entre las réplicas",
    "Loss": "Pérdida",
    "Epoch": "Época",
    "Train (per batch, smoothed)": "Entrenamiento (por lote, suavizado)",
    "Train": "Entrenamiento",
    "Validation": "Validación",
    "Accuracy": "Precisión",
    "Time per epoch": "Tiempo por época",
    "Seconds": "Segundos",
    "Samples/s": "Muestras/s",
    "RAM (system total %1)": "RAM (total del sistema %1)",
    "MB": "MB",
    "Trainbench": "Trainbench",
    "System used": "Usada por el sistema",
    "The confusion matrix appears after the first epoch.": "La matriz de confusión aparece tras la primera época.",
    "Predicted class": "Clase predicha",
    "Rows: true class. Click a cell to see its images.": "Filas: clase real. Haz clic en una celda para ver sus imágenes.",
    "Dataset": "Conjunto de datos",
    "Choose folder…": "Elegir carpeta…",
    "A folder with train-images-idx3-ubyte, train-labels-idx1-ubyte, t10k-images-idx3-ubyte and t10k-labels-idx1-ubyte (raw or .gz). You can also drop a folder on the window.":
        "Una carpeta con train-images-idx3-ubyte, train-labels-idx1-ubyte, t10k-images-idx3-ubyte y t10k-labels-idx1-ubyte (sin comprimir o .gz). También puedes soltar una carpeta sobre la ventana.",
    "Samples per class": "Ejemplos por clase",
    "Loading %1…": "Cargando %1…",
    "No dataset loaded. Choose a folder of IDX files.": "No hay ningún conjunto de datos cargado. Elige una carpeta de archivos IDX.",
    "Could not load the dataset: %1": "No se pudo cargar el conjunto de datos: %1",
    "Choose a dataset folder": "Elige una carpeta de datos",
    "<b>%1</b><br>Files: %2, %3, %4, %5<br>%6 training and %7 test images, %8×%9 pixels<br>%10 classes (%11): %12":
        "<b>%1</b><br>Archivos: %2, %3, %4, %5<br>%6 imágenes de entrenamiento y %7 de test, %8×%9 píxeles<br>%10 clases (%11): %12",
    "Hyperparameters": "Hiperparámetros",
    "Optimizer": "Optimizador",
    "Learning rate": "Tasa de aprendizaje",
    "Momentum (SGD)": "Momento (SGD)",
    "Batch size": "Tamaño del lote",
    "Epochs": "Épocas",
    "Seed": "Semilla",
    "Batches per epoch": "Lotes por época",
    "Image size ×": "Tamaño de imagen ×",
    "all": "todos",
    "Train on at most this many batches per epoch, for quick runs":
        "Entrenar como mucho con este número de lotes por época, para pruebas rápidas",
    "Scale the images by this factor to see the compute grow (the TPU tutorial's SIZE_MULTIPLIER)":
        "Escalar las imágenes por este factor para ver crecer el cómputo (el SIZE_MULTIPLIER del tutorial de TPU)",
    "Drop the remainder (both splits a multiple of the batch size, as the TPU needs)":
        "Descartar el resto (ambas particiones múltiplo del tamaño del lote, como necesita la TPU)",
    "Open a model file": "Abrir un archivo de modelo",
    "Model files (*.json);;All files (*)": "Archivos de modelo (*.json);;Todos los archivos (*)",
    "Open trained weights": "Abrir pesos entrenados",
    "Weights (*.tbw *.safetensors);;All files (*)": "Pesos (*.tbw *.safetensors);;Todos los archivos (*)",
    "Export the charts to a folder": "Exportar los gráficos a una carpeta",
    "Export the history": "Exportar el historial",
    "CSV files (*.csv)": "Archivos CSV (*.csv)",
    "Export the misclassified images": "Exportar las imágenes mal clasificadas",
    "PNG images (*.png)": "Imágenes PNG (*.png)",
    "Export the confusion matrix": "Exportar la matriz de confusión",
    "Save the trained weights": "Guardar los pesos entrenados",
    "Trainbench weights (*.tbw)": "Pesos de Trainbench (*.tbw)",
    "About Trainbench": "Acerca de Trainbench",
    "<b>Trainbench %1</b><br>Train convolutional networks on IDX datasets and compare what each accelerator does with the same work, offline.<br>CPU kernels: %2.":
        "<b>Trainbench %1</b><br>Entrena redes convolucionales con conjuntos de datos IDX y compara lo que hace cada acelerador con el mismo trabajo, sin conexión.<br>Núcleos de cálculo de la CPU: %2.",
    "Setup": "Configuración",
    "Training": "Entrenamiento",
    "Results": "Resultados",
    "&File": "&Archivo",
    "Open dataset folder…": "Abrir carpeta de datos…",
    "Open model file…": "Abrir archivo de modelo…",
    "Open weights and evaluate…": "Abrir pesos y evaluar…",
    "Export charts (PNG and SVG)…": "Exportar gráficos (PNG y SVG)…",
    "Export history (CSV)…": "Exportar historial (CSV)…",
    "Export misclassified grid (PNG)…": "Exportar cuadrícula de errores (PNG)…",
    "Export confusion matrix (PNG)…": "Exportar matriz de confusión (PNG)…",
    "Save trained weights…": "Guardar pesos entrenados…",
    "Export the trained weights": "Exportar los pesos entrenados",
    "ONNX model (*.onnx);;safetensors for PyTorch (*.safetensors)":
        "Modelo ONNX (*.onnx);;safetensors para PyTorch (*.safetensors)",
    "Export weights (ONNX, safetensors)…": "Exportar pesos (ONNX, safetensors)…",
    "%1 — the same cores with %2 kernels": "%1 — los mismos núcleos con rutinas %2",
    "Quit": "Salir",
    "&Run": "&Ejecución",
    "Start": "Iniciar",
    "Pause / resume": "Pausar / reanudar",
    "Stop": "Detener",
    "&Language": "&Idioma",
    "System language": "Idioma del sistema",
    "&Help": "A&yuda",
    "A run is in progress.": "Hay un entrenamiento en curso.",
    "The dataset is still loading.": "El conjunto de datos aún se está cargando.",
    "Choose a dataset folder first.": "Primero elige una carpeta de datos.",
    "The model cannot be used: see the Model panel.": "El modelo no se puede usar: mira el panel Modelo.",
    "The chosen accelerator cannot be used: %1": "El acelerador elegido no se puede usar: %1",
    "Saved %1 charts as PNG and SVG in %2": "Se guardaron %1 gráficos como PNG y SVG en %2",
    "There is no history to export yet: train for an epoch first.":
        "Aún no hay historial que exportar: entrena primero una época.",
    "Saved %1": "Guardado %1",
    "There are no results to export yet.": "Aún no hay resultados que exportar.",
    "There are no trained weights yet.": "Aún no hay pesos entrenados.",
    "Choose a dataset folder first, then open the weights to evaluate them on it.":
        "Elige primero una carpeta de datos y después abre los pesos para evaluarlos con ella.",
    "Could not evaluate %1: %2": "No se pudo evaluar %1: %2",
    "Evaluated %1: test loss %2, accuracy %3": "Evaluado %1: pérdida de test %2, precisión %3",
    "Model": "Modelo",
    "Layer (type)": "Capa (tipo)",
    "Output shape": "Forma de salida",
    "Params": "Parámetros",
    "File: %1": "Archivo: %1",
    "Could not use this model: %1": "No se pudo usar este modelo: %1",
    "Model file %1": "Archivo de modelo %1",
    "Total params: %1 — trainable: %2 — non-trainable: %3":
        "Total de parámetros: %1 — entrenables: %2 — no entrenables: %3",
    "This model does not fit %1×%2 images with %3 classes: %4":
        "Este modelo no encaja con imágenes de %1×%2 y %3 clases: %4",
    "Show all images": "Mostrar todas las imágenes",
    "Results appear after the first epoch.": "Los resultados aparecen tras la primera época.",
    "%1 of %2 wrong": "%1 de %2 erróneas",
    "%1 images of class %2 predicted as %3": "%1 imágenes de la clase %2 predichas como %3",
    "true: %1": "real: %1",
    "Test image %1": "Imagen de test %1",
    "<b>True class:</b> %1<br><b>Predicted:</b> %2<br><br><b>Top 3</b><br>":
        "<b>Clase real:</b> %1<br><b>Predicha:</b> %2<br><br><b>Las 3 más probables</b><br>",
    "Resume": "Reanudar",
    "Pause": "Pausar",
    "Ready.": "Listo.",
    "Paused at epoch %1/%2, step %3/%4.": "En pausa en la época %1/%2, paso %3/%4.",
    "Training: %1 replicas in sync, global batch %2.": "Entrenando: %1 réplicas sincronizadas, lote global %2.",
    "Epoch %1/%2": "Época %1/%2",
    "Epoch %1/%2 — step %3/%4 — ETA %5 — %6 samples/s — loss %7 — accuracy %8":
        "Época %1/%2 — paso %3/%4 — quedan %5 — %6 muestras/s — pérdida %7 — precisión %8",
    "Test loss: %1 - test accuracy: %2 - weights sha256: %3":
        "Pérdida de test: %1 - precisión de test: %2 - sha256 de los pesos: %3",
    "Finished: test accuracy %1.": "Terminado: precisión de test %1.",
    "Stopped by the user; test accuracy of the weights so far: %1":
        "Detenido por el usuario; precisión de test de los pesos hasta ahora: %1",
    "Stopped.": "Detenido.",
    "Error: %1": "Error: %1",
    "Failed: %1": "Falló: %1",
    "Export the comparison": "Exportar la comparación",
    "Export the comparison chart": "Exportar el gráfico de la comparación",
    "Compare accelerators": "Comparar aceleradores",
    "Trains the model chosen on the Setup page from the same initial weights on each ticked device in turn, with the same seed, epochs, batch and batches per epoch. CPU devices give identical weights (same SHA-256) on any number of cores, and AVX2 and AVX-512 kernels agree; the SSE4.2 baseline rounds differently, and the table shows its largest weight difference, as for a GPU.":
        "Entrena el modelo elegido en la página Configuración desde los mismos pesos iniciales en cada dispositivo marcado, uno tras otro, con la misma semilla, épocas, lote y lotes por época. Los dispositivos CPU dan pesos idénticos (mismo SHA-256) con cualquier número de núcleos, y las rutinas AVX2 y AVX-512 coinciden; la base SSE4.2 redondea de otro modo, y la tabla muestra su mayor diferencia de pesos, como para una GPU.",
    "%1 — one CPU core": "%1 — un núcleo de CPU",
    "%1 — all %2 CPU cores": "%1 — los %2 núcleos de CPU",
    "%1 — unavailable: %2": "%1 — no disponible: %2",
    "Sweep:": "Barrido:",
    "none": "ninguno",
    "batch size": "tamaño del lote",
    "image size multiplier": "multiplicador del tamaño de imagen",
    "values, e.g. 32,64,128,256": "valores, p. ej. 32,64,128,256",
    "Run comparison": "Ejecutar comparación",
    "Export CSV…": "Exportar CSV…",
    "Export chart PNG…": "Exportar gráfico PNG…",
    "Device": "Dispositivo",
    "Replicas": "Réplicas",
    "Batch": "Lote",
    "Size ×": "Tamaño ×",
    "s/epoch": "s/época",
    "Speed-up": "Aceleración",
    "Test loss": "Pérdida de test",
    "Test accuracy": "Precisión de test",
    "Max |Δw|": "Máx. |Δw|",
    "Weights SHA-256": "SHA-256 de los pesos",
    "Time per epoch and speed-up": "Tiempo por época y aceleración",
    "Seconds per epoch": "Segundos por época",
    "Speed-up vs the first device": "Aceleración frente al primer dispositivo",
    "A comparison is in progress.": "Hay una comparación en curso.",
    "Tick at least one device.": "Marca al menos un dispositivo.",
    "Starting…": "Empezando…",
    "Device %1 of %2: %3": "Dispositivo %1 de %2: %3",
    "Device %1 of %2 — epoch %3/%4, step %5/%6 — %7 samples/s":
        "Dispositivo %1 de %2 — época %3/%4, paso %5/%6 — %7 muestras/s",
    "Comparison failed: %1": "La comparación falló: %1",
    "Stopped; %1 device run(s) finished.": "Detenida; terminaron %1 ejecuciones.",
    "Done: %1 device run(s).": "Hecho: %1 ejecuciones.",
    "skipped: %1": "omitido: %1",
    "running…": "en curso…",
    "There is nothing to export yet.": "Aún no hay nada que exportar.",
    "Compare": "Comparar",
    "A training run is in progress; stop it first so the timings are fair.":
        "Hay un entrenamiento en curso; detenlo primero para que los tiempos sean justos.",
    "Rows: true class.": "Filas: clase real.",
    # The engine's messages, by their stable ids (ui/common/engine_text.cpp).
    "dataset folder %1 does not exist": "la carpeta de datos %1 no existe",
    "no %1 file in %2": "no hay ningún archivo %1 en %2",
    "%1 holds %2 labels but %3 holds %4 images": "%1 contiene %2 etiquetas pero %3 contiene %4 imágenes",
    "%1: cannot open: %2": "%1: no se puede abrir: %2",
    "%1: the file is too short to hold an IDX header (%2 bytes)":
        "%1: el archivo es demasiado corto para contener una cabecera IDX (%2 bytes)",
    "%1: not an IDX file (bad magic number %2; expected %3)":
        "%1: no es un archivo IDX (número mágico incorrecto %2; se esperaba %3)",
    "%1: is longer than its header says: %2 extra bytes after the declared %3":
        "%1: es más largo de lo que dice su cabecera: %2 bytes de más tras los %3 declarados",
    "%1: is truncated: the header declares %2 data bytes but only %3 are present":
        "%1: está truncado: la cabecera declara %2 bytes de datos pero solo hay %3",
    "%1: is longer than its header says: extra bytes after the declared %2":
        "%1: es más largo de lo que dice su cabecera: sobran bytes tras los %2 declarados",
    "training diverged at epoch %1, step %2: the %3 became NaN or infinite. The weights of the last good step were kept; try a lower learning rate.":
        "el entrenamiento divergió en la época %1, paso %2: apareció un NaN o un infinito en %3. Se conservaron los pesos del último paso correcto; prueba con una tasa de aprendizaje menor.",
    "built without CUDA": "compilado sin CUDA",
    "loss": "la pérdida",
    "gradient": "el gradiente",
    "updated weights": "los pesos actualizados",
    "no GPU available: %1": "no hay ninguna GPU disponible: %1",
    "The MNIST CNN from the TPU article (BatchNorm without scale, no biases before BN), pixels scaled to 0-1.":
        "La CNN de MNIST del artículo sobre TPU (BatchNorm sin escala, sin sesgos antes de BN), píxeles escalados a 0-1.",
    "The Fashion-MNIST CNN from the Spanish Colab tutorial (three 5x5 conv blocks with ELU), fed raw 0-255 pixels.":
        "La CNN de Fashion-MNIST del tutorial de Colab en español (tres bloques convolucionales 5x5 con ELU), con píxeles sin escalar de 0 a 255.",
    "The classic Keras MNIST example (two 3x3 convs, max pooling, dropout), pixels scaled to 0-1.":
        "El ejemplo clásico de MNIST de Keras (dos convoluciones 3x3, max pooling, dropout), píxeles escalados a 0-1.",
    "No dataset is loaded.": "No hay ningún conjunto de datos cargado.",
    "Scale the batch with the replicas": "Escalar el lote con las réplicas",
    "Drop the remainder": "Descartar el resto",
    "%1 on %2, started %3": "%1 en %2, iniciado a las %3",
    "Run %1 — validation after epoch %2 of %3, on %4 test images":
        "Entrenamiento %1 — validación tras la época %2 de %3, con %4 imágenes de test",
    "Saved %1: the first %2 of %3 images (misclassified first); the grid export is capped at %2.":
        "Guardado %1: las primeras %2 de %3 imágenes (primero las mal clasificadas); la exportación de la cuadrícula se limita a %2.",
    "Saved %1 (%2 images)": "Guardado %1 (%2 imágenes)",
    "Weights file %1 — evaluated on the test set of %2": "Archivo de pesos %1 — evaluado con el conjunto de test de %2",
    "A run is in progress": "Hay un entrenamiento en curso",
    "Training is still running. Stop it and close the window, or stop it and keep the weights so far to save or study them?":
        "El entrenamiento sigue en marcha. ¿Detenerlo y cerrar la ventana, o detenerlo y conservar los pesos obtenidos hasta ahora para guardarlos o estudiarlos?",
    "Stop the training? The weights so far are kept, evaluated on the test set and can be saved.":
        "¿Detener el entrenamiento? Los pesos obtenidos hasta ahora se conservan, se evalúan con el conjunto de test y se pueden guardar.",
    "A comparison is still running. Stop it and close the window? The finished rows are lost.":
        "Una comparación sigue en marcha. ¿Detenerla y cerrar la ventana? Se perderán las filas terminadas.",
    "Stop and keep the weights": "Detener y conservar los pesos",
    "Stop and close": "Detener y cerrar",
    "Keep running": "Seguir entrenando",
    "Continue training": "Continuar el entrenamiento",
    "Paused": "En pausa",
    "Stopping…": "Deteniendo…",
    "Paused — epoch %v/%m steps": "En pausa — época %v/%m pasos",
    "Epoch: %v/%m steps": "Época: %v/%m pasos",
    "Run: %p%": "Total: %p%",
    "Steps of the current epoch": "Pasos de la época actual",
    "Steps of the whole run": "Pasos de todo el entrenamiento",
    "Paused at epoch %1/%2, step %3/%4; the clock is stopped too. Resume to go on.":
        "En pausa en la época %1/%2, paso %3/%4; el reloj también está parado. Pulsa Reanudar para seguir.",
    "Finishing the batch in flight, then the weights so far are evaluated on the test set.":
        "Terminando el lote en curso; después se evalúan los pesos obtenidos hasta ahora con el conjunto de test.",
    "Evaluating the weights so far on the %1 test images…": "Evaluando los pesos obtenidos hasta ahora con las %1 imágenes de test…",
    "Epoch %1/%2 — step %3/%4 — ETA %5 — run %6% — run ETA %7 — %8 samples/s — loss %9 — accuracy %10":
        "Época %1/%2 — paso %3/%4 — quedan %5 — total %6% — quedan %7 en total — %8 muestras/s — pérdida %9 — precisión %10",
    "Stopped at epoch %1, step %2; the weights so far are kept (test accuracy %3).":
        "Detenido en la época %1, paso %2; se conservan los pesos obtenidos hasta ahora (precisión de test %3).",
    # The Predict page (ui/predict).
    "%1 is %2×%3 pixels, too large to predict on (at most %4 pixels a side and %5 megapixels); scale it down first.":
        "%1 mide %2×%3 píxeles, demasiado para predecir (como mucho %4 píxeles por lado y %5 megapíxeles); redúcela antes.",
    "%1 does not exist.": "%1 no existe.",
    "%1 is a folder, not a picture.": "%1 es una carpeta, no una imagen.",
    "%1 is empty (0 bytes).": "%1 está vacío (0 bytes).",
    "%1 is not a picture Trainbench can read (%2).": "%1 no es una imagen que Trainbench sepa leer (%2).",
    "%1 has no pixels (%2×%3).": "%1 no tiene píxeles (%2×%3).",
    "%1 is animated (%2 frames): predicting on its first frame.":
        "%1 es animada (%2 fotogramas): se predice sobre el primero.",
    "%1 could not be read: %2.": "No se pudo leer %1: %2.",
    "%1 has no pixels.": "%1 no tiene píxeles.",
    "Predict": "Predecir",
    "weights file %1": "archivo de pesos %1",
    "Open a picture": "Abrir una imagen",
    "Pictures (%1);;All files (*)": "Imágenes (%1);;Todos los archivos (*)",
    "Open weights…": "Abrir pesos…",
    "Open picture…": "Abrir imagen…",
    "Paste": "Pegar",
    "Undo": "Deshacer",
    "Clear": "Borrar",
    "Brush": "Pincel",
    "Invert dark ink on light paper": "Invertir tinta oscura sobre papel claro",
    "The datasets store white ink on black: a picture lighter at its border than in its middle is inverted.":
        "Los conjuntos de datos guardan tinta blanca sobre negro: una imagen más clara en el borde que en el centro se invierte.",
    "Centre like MNIST": "Centrar como MNIST",
    "Crop to the ink, fit it into 20×20 keeping its shape and put its centre of mass in the middle of 28×28, as MNIST did. Off: the whole picture resized.":
        "Recortar a la tinta, encajarla en 20×20 conservando su forma y llevar su centro de masa al centro de 28×28, como hizo MNIST. Desactivado: toda la imagen redimensionada.",
    "Classes shown": "Clases mostradas",
    "Draw with the mouse, a pen or a finger; drop or paste a picture here.":
        "Dibuja con el ratón, un lápiz o el dedo; suelta o pega una imagen aquí.",
    "Most probable classes": "Clases más probables",
    "No model yet: train one (Setup, then Start) or open a weights file. Meanwhile the page shows what a model would receive.":
        "Aún no hay modelo: entrena uno (Configuración y luego Iniciar) o abre un archivo de pesos. Mientras tanto, la página muestra lo que recibiría un modelo.",
    "Model: %1 — %2×%3 pictures, %4 classes": "Modelo: %1 — imágenes de %2×%3, %4 clases",
    "Could not use the model: %1": "No se pudo usar el modelo: %1",
    "Could not open %1: %2": "No se pudo abrir %1: %2",
    "The pasted picture": "La imagen pegada",
    "the pasted picture": "la imagen pegada",
    "The clipboard holds no picture.": "El portapapeles no contiene ninguna imagen.",
    "The dropped picture": "La imagen soltada",
    "the dropped picture": "la imagen soltada",
    "inverted": "invertida",
    "cropped, fitted into 20×20 and centred": "recortada, encajada en 20×20 y centrada",
    "not centred: no ink lighter than the paper": "sin centrar: no hay tinta más clara que el papel",
    "resized": "redimensionada",
    "What the model receives (%1×%2): %3": "Lo que recibe el modelo (%1×%2): %3",
    "Draw a digit, or open, drop or paste a picture.": "Dibuja un dígito, o abre, suelta o pega una imagen.",
    "No model to predict with yet.": "Aún no hay modelo con el que predecir.",
    "%1 (%2%) — predicted in %3 ms on one core": "%1 (%2%) — predicho en %3 ms en un núcleo",
    # Issue 17, the window's half: validation split, schedules, early stopping, run folders, Resume.
    "Advanced: validation, schedule, early stopping": "Avanzado: validación, programación, parada temprana",
    "Validation split": "Fracción de validación",
    "Learning-rate schedule": "Programación de la tasa de aprendizaje",
    "Drop every (epochs)": "Bajar cada (épocas)",
    "Factor": "Factor",
    "Decay rate": "Tasa de decaimiento",
    "Decay steps": "Pasos de decaimiento",
    "Warm-up steps": "Pasos de calentamiento",
    "Final rate (× initial)": "Tasa final (× inicial)",
    "Patience (epochs)": "Paciencia (épocas)",
    "Minimum rate": "Tasa mínima",
    "Early stopping": "Parada temprana",
    "Minimum change": "Cambio mínimo",
    "Checkpoint every": "Punto de control cada",
    "0 (test set)": "0 (conjunto de test)",
    "Hold out this last fraction of the training images to validate each epoch (Keras' validation_split), so the test set stays untouched until the end; 0: the test set validates each epoch, as the tutorials do":
        "Reservar esta última fracción de las imágenes de entrenamiento para validar cada época (validation_split de Keras), de modo que el conjunto de test quede intacto hasta el final; 0: el conjunto de test valida cada época, como en los tutoriales",
    "Constant": "Constante",
    "Step decay": "Decaimiento escalonado",
    "Exponential decay": "Decaimiento exponencial",
    "Cosine with warm-up": "Coseno con calentamiento",
    "Reduce on plateau": "Reducir en meseta",
    "How the learning rate changes during the run; it is plotted beside the loss":
        "Cómo cambia la tasa de aprendizaje durante el entrenamiento; se dibuja junto a la pérdida",
    "The rate is multiplied by this factor at each drop": "La tasa se multiplica por este factor en cada bajada",
    "Initial rate × decay rate ^ (step / decay steps)": "Tasa inicial × tasa de decaimiento ^ (paso / pasos de decaimiento)",
    "Steps of linear warm-up from 0, then cosine decay to the final rate at the run's last step":
        "Pasos de calentamiento lineal desde 0 y después decaimiento en coseno hasta la tasa final en el último paso",
    "Epochs without improvement of val_loss before the rate is lowered":
        "Épocas sin mejora de val_loss antes de bajar la tasa",
    "off": "desactivada",
    "Stop when the monitored validation value has not improved for the patience":
        "Detener cuando el valor de validación vigilado no haya mejorado durante la paciencia",
    "A change smaller than this is not an improvement": "Un cambio menor que este no es una mejora",
    "Restore the best epoch's weights": "Restaurar los pesos de la mejor época",
    "epoch ends": "fin de cada época",
    " batches": " lotes",
    "Every run writes a checkpoint into its run folder at each epoch end and on Stop; also every this many batches":
        "Cada entrenamiento escribe un punto de control en su carpeta al final de cada época y al detenerlo; también cada este número de lotes",
    "As the CLI: %1": "Como en la CLI: %1",
    "Learning rate (right axis)": "Tasa de aprendizaje (eje derecho)",
    "Rate lowered on plateau": "Tasa bajada en meseta",
    "Best epoch (%1)": "Mejor época (%1)",
    "Validation (last %1% of train)": "Validación (último %1% del entrenamiento)",
    "Validation (test set)": "Validación (conjunto de test)",
    "Run folder %1": "Carpeta del entrenamiento %1",
    "Run folder %1 (the run is complete)": "Carpeta del entrenamiento %1 (el entrenamiento está completo)",
    "Run folder %1 (resumed at epoch %2, step %3)": "Carpeta del entrenamiento %1 (continuado en la época %2, paso %3)",
    "Validation: the last %1% of the training images (%2), held out; the test set is used at the end only":
        "Validación: el último %1% de las imágenes de entrenamiento (%2), reservado; el conjunto de test solo se usa al final",
    "Validation: the test set (%1 images), after each epoch": "Validación: el conjunto de test (%1 imágenes), tras cada época",
    "Learning-rate schedule: %1": "Programación de la tasa de aprendizaje: %1",
    "step decay ×%1 every %2 epochs": "caída escalonada ×%1 cada %2 épocas",
    "exponential decay %1 per %2 steps": "caída exponencial %1 cada %2 pasos",
    "cosine decay to %1× after %2 warm-up steps": "caída coseno hasta %1× tras %2 pasos de calentamiento",
    "reduce on plateau of %1: ×%2 after %3 epochs, minimum %4": "reducir en meseta de %1: ×%2 tras %3 épocas, mínimo %4",
    "constant": "constante",
    "%1, patience %2, min_delta %3": "%1, paciencia %2, min_delta %3",
    "%1, restoring the best weights": "%1, restaurando los mejores pesos",
    "Early stopping: %1": "Parada temprana: %1",
    "Epoch %1: ReduceLROnPlateau reducing learning rate to %2.": "Época %1: ReduceLROnPlateau baja la tasa de aprendizaje a %2.",
    "Epoch %1: %2 improved to %3, the best epoch so far.": "Época %1: %2 mejoró a %3, la mejor época hasta ahora.",
    "Epoch %1: early stopping": "Época %1: parada temprana",
    "Restoring model weights from the end of the best epoch: %1.": "Restaurando los pesos del final de la mejor época: %1.",
    "The checkpoint is in %1; File > Resume run… continues the run.":
        "El punto de control está en %1; Archivo > Continuar entrenamiento… lo continúa.",
    "Resume a run from its folder": "Continuar un entrenamiento desde su carpeta",
    "A training run is in progress.": "Hay un entrenamiento en curso.",
    "A comparison is in progress.": "Hay una comparación en curso.",
    "%1 resumed on %2 at %3": "%1 continuado en %2 a las %3",
    "Run %1 — the final weights on %2 test images": "Entrenamiento %1 — los pesos finales en %2 imágenes de test",
    "Resume run…": "Continuar entrenamiento…",
    "Continue a stopped or interrupted run from its folder's checkpoint":
        "Continuar un entrenamiento detenido o interrumpido desde el punto de control de su carpeta",

}


def main(path):
    tree = ET.parse(path)
    missing = []
    for message in tree.getroot().iter("message"):
        source = message.find("source").text or ""
        translation = message.find("translation")
        if source in ES:
            translation.text = ES[source]
            translation.attrib.pop("type", None)
        else:
            missing.append(source)
    tree.write(path, encoding="utf-8", xml_declaration=True)
    for m in missing:
        print("untranslated:", repr(m), file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "translations/trainbench_es.ts"))
