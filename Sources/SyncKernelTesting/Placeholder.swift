public enum SKTPlaceholder {}
