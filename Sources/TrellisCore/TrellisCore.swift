public enum TrellisCore {}
