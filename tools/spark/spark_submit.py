"""Where spark-submit is, for the fleet check and benchmark."""
import os
import shutil


def spark_submit_path():
    """spark-submit on PATH, else the one inside the pyspark package (a --user install's bin is
    often not on PATH)."""
    found = shutil.which("spark-submit")
    if found:
        return found
    import pyspark
    return os.path.join(os.path.dirname(pyspark.__file__), "bin", "spark-submit")
