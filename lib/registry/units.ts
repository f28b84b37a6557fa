// Inventory units of the spec (the stock-level `unit` field and the parts import accept only these).
export const INVENTORY_UNITS = [
  'AMPULE', 'BAG', 'BOTTLE', 'BOX', 'CAN', 'CARTON', 'CASE', 'CENTIMETER', 'CUBIC_METER', 'DAY', 'DECILITER', 'DOZEN', 'DRUM', 'FEET', 'GRAM', 'GROSS',
  'HECTOLITER', 'HOUR', 'IMPERIAL_GALLON', 'IMPERIAL_PINT', 'IMPERIAL_QUART', 'JAR', 'KEG', 'KILOGRAM', 'LITER', 'LOAVE', 'METER', 'METRIC_CUP', 'METRIC_TON',
  'MILLILITER', 'MILLIMETER', 'OUNCE', 'OIL_BARREL', 'PACK', 'PAIL', 'PAIR', 'PIECE', 'POT', 'POUND', 'REAM', 'ROLL', 'SACHET', 'SET', 'SHEET', 'SQUARE_METER',
  'TIN', 'TON', 'US_LIQUID_GALLON', 'LUMP_SUM', 'PER_DAY',
] as const;

export type InventoryUnit = (typeof INVENTORY_UNITS)[number];
