public enum Recording {}
